#!/bin/bash
# make bench: run guest/bench.job, then guest/bench-selinux.job in a boot of its own, on
# the patched kernel and on the unpatched base, in one run, and gather their
# "# bench: NAME VALUE" lines into build/results/bench.json. A base figure is named with
# ".base" after its first component: reclaim.base.dentry_... .
. "$(dirname "$0")/lib.sh"

stage "packages" "$TOP/scripts/deps.sh" --bench || exit 1
stage "tree" "$TOP/scripts/tree.sh" apply || exit 1
stage "kernel" "$TOP/scripts/build-kernel.sh" "$TREE" "$BUILD/kernel" "$TOP/config/qemu.config" || exit 1
stage "initramfs" "$TOP/scripts/build-initramfs.sh" "$TREE" "$BUILD/kernel" || exit 1
build_base || exit 1

# Both kernels boot the patched kernel's initramfs: the same tests, the same binaries.
export QEMU_MEM=1G
stage "bench, series" "$TOP/scripts/run-qemu.sh" "$BUILD/kernel" bench "$TOP/guest/bench.job" ||
	die "bench on the series failed"
INITRD=$BUILD/kernel/initramfs.cpio.gz stage "bench, base" "$TOP/scripts/run-qemu.sh" \
	"$BUILD/kernel-base" bench-base "$TOP/guest/bench.job" || die "bench on the base failed"
stage "bench selinux, series" "$TOP/scripts/run-qemu.sh" "$BUILD/kernel" bench-selinux \
	"$TOP/guest/bench-selinux.job" || die "SELinux bench on the series failed"
INITRD=$BUILD/kernel/initramfs.cpio.gz stage "bench selinux, base" "$TOP/scripts/run-qemu.sh" \
	"$BUILD/kernel-base" bench-selinux-base "$TOP/guest/bench-selinux.job" ||
	die "SELinux bench on the base failed"

# figures NAME...: the "bench: NAME VALUE" lines of boots, from their job's output ("# bench:")
# and from benchmark modules in their kernel log on the console ("[ time] bench:").
figures() {
	local boot
	for boot; do
		sed -n 's/^# bench: \([^ ]*\) \([^ ]*\)$/\1 \2/p' "$RESULTS/$boot/job.log"
		tr -d '\r' <"$RESULTS/console-$boot.log" |
			sed -n 's/^\[[ 0-9.]*\] bench: \([^ ]*\) \([^ ]*\)$/\1 \2/p'
	done
}
# selinux: each of the series' SELinux times, decision rate and policy memory divided by
# the base's (selinux.load_time_ms gives selinux.load_time_ratio; not their parts, such as
# selinux.policy_memory.slab_kb), and the malformed policies that got the same verdict on
# both kernels (from verdict files for the same dummy policy and mutants: the same first
# line).
selinux() {
	local f=$RESULTS/bench-selinux/malformed.verdicts b=$RESULTS/bench-selinux-base/malformed.verdicts
	awk 'NR == FNR { base[$1] = $2; next }
	     $1 ~ /^selinux\.[^.]*_(ms|per_s|kb)$/ && base[$1] > 0 {
		n = $1; sub(/_(ms|per_s|kb)$/, "_ratio", n); printf "%s %.3f\n", n, $2 / base[$1]
	     }' <(figures bench-selinux-base) <(figures bench-selinux)
	if [ -s "$f" ] && [ -s "$b" ] && [ "$(head -n1 "$f")" = "$(head -n1 "$b")" ]; then
		echo "selinux.malformed_tried $(tail -n +2 "$f" | wc -l)"
		echo "selinux.malformed_same_verdict $(tail -n +2 "$f" | grep -cxFf <(tail -n +2 "$b"))"
	fi
}
{
	figures bench bench-selinux
	figures bench-base bench-selinux-base | sed 's/^\([^.]*\)\./\1.base./'
	selinux
} | awk '!($1 in v) { k[n++] = $1 } { v[$1] = $2 }
	END { printf "{"; for (i = 0; i < n; i++) printf "%s\n  \"%s\": %s", (i ? "," : ""), k[i], v[k[i]]; print "\n}" }' \
	>"$RESULTS/bench.json" || die "writing bench.json failed"
cat "$RESULTS/bench.json"
stage "plot" "$TOP/scripts/plot-large.sh" || exit 1
log "bench: done"
