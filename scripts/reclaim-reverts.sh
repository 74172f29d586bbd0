#!/bin/bash
# Each conversion of the reclaim series must fail on its own: build the series with one
# conversion patch reverted (in the worktree build/linux-revert, built in
# build/kernel-revert), boot it with the series' initramfs, run the reclaim kselftest
# (guest/reclaim.job), once per patch and once for the series itself.
# The table goes to build/results/reclaim-reverts.txt. About 4 minutes a row; not in CI.
. "$(dirname "$0")/lib.sh"

# The conversion patches, by the start of their subject.
conversions=("lsm: " "ima: " "fs/posix_acl: " "jbd2: " "filelock: ")
src=$BUILD/linux-revert kdir=$BUILD/kernel-revert out=$RESULTS/reclaim-reverts.txt

[ -f "$BUILD/kernel/initramfs.cpio.gz" ] || die "build the series first (make kernel)"
read -r _ marker end < <("$TOP/scripts/tree.sh" groups | grep '^reclaim ') ||
	die "no reclaim series in $TREE"
if [ ! -e "$src/.git" ]; then
	git -C "$TREE" worktree add -q --detach "$src" HEAD || die "cannot make $src"
fi

# row NAME KDIR: boot KDIR, run the kselftest, print one line of the table.
row() {
	local log
	INITRD=$BUILD/kernel/initramfs.cpio.gz QEMU_TIMEOUT=900 \
		stage "reclaim kselftest, $1" "$TOP/scripts/run-qemu.sh" "$2" "revert-$1" \
		"$TOP/guest/reclaim.job" || die "the guest job failed for $1"
	log=$RESULTS/revert-$1/job.log
	printf '%-14s %s  failed: %s\n' "$1" \
		"$(sed -n 's/^# bench: reclaim.conversions_tested //p' "$log")" \
		"$(sed -n 's/^not ok [0-9]* \([a-z_0-9]*\):.*/\1/p' "$log" | paste -sd' ')"
	sed -n 's/^# bench: reclaim.\([a-z_0-9]*\)_unreclaimable_bytes_per_file /    \1 /p' "$log" |
		paste -sd' '
}

{
	echo "reverted       conversions_tested; cases that failed"
	echo "               (then each case's unreclaimable bytes per file)"
	row none "$BUILD/kernel"
	for c in "${conversions[@]}"; do
		sha=$(git -C "$TREE" log --format='%s%x09%H' "$marker..$end" |
			awk -F '\t' -v c="$c" 'index($1, c) == 1 { print $2 }')
		[ -n "$sha" ] || die "no patch '$c' in the reclaim series"
		name=${c%%: }
		name=${name//\//_}
		git -C "$src" reset -q --hard "$(git -C "$TREE" rev-parse HEAD)" || exit 1
		git -C "$src" revert --no-edit "$sha" >/dev/null || die "cannot revert '$c' alone"
		stage "kernel without $c" "$TOP/scripts/build-kernel.sh" "$src" "$kdir" \
			"$TOP/config/qemu.config" || exit 1
		row "$name" "$kdir"
	done
} | tee "$out"
[ "${PIPESTATUS[0]}" -eq 0 ] || die "the table is incomplete ($out)"
log "table in $out"
