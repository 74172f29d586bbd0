#!/bin/bash
# make bisect: build every commit of the series on its own (bisectability), with the test
# config, in a worktree of its own (build/linux-bisect, build/kernel-bisect) so that
# build/linux is left alone. FROM=N starts at patch N. Stops at the first commit that does
# not build. Slow: a header change rebuilds most of the kernel (ccache helps).
. "$(dirname "$0")/lib.sh"

wt=$BUILD/linux-bisect
out=$BUILD/kernel-bisect
stage "tree" "$TOP/scripts/tree.sh" apply || exit 1
if [ ! -e "$wt/.git" ]; then
	git -C "$TREE" worktree add -q --detach "$wt" base || die "cannot make $wt"
fi
# Every patch, without the series' marker commits (empty: nothing to build).
mapfile -t commits < <(git -C "$TREE" log --reverse --format=%H --no-merges base..HEAD |
	while read -r c; do git -C "$TREE" diff --quiet "$c^" "$c" || echo "$c"; done)
n=${#commits[@]}
for ((i = ${FROM:-1}; i <= n; i++)); do
	c=${commits[i - 1]}
	git -C "$wt" checkout -q --detach "$c" || die "checkout $c failed"
	# build-kernel.sh reconfigures when a patch changes Kconfig, so the options a patch adds
	# are on when it is built. Options of later patches do not exist yet: KCONFIG_LAX=1
	# only warns about them.
	KCONFIG_LAX=1 stage "patch $i/$n: $(git -C "$wt" log -1 --format=%s)" \
		"$TOP/scripts/build-kernel.sh" "$wt" "$out" "$TOP/config/qemu.config" ||
		die "patch $i/$n does not build: $(git -C "$wt" log -1 --format='%h %s')"
done
log "all $n patches build on their own"
