#!/bin/bash
# cross-arm64.sh [REV]: show that the C files the large-kmalloc series touches compile for
# arm64 with 64K pages (CONFIG_ARM64_64K_PAGES=y) with W=1 and without a warning.
#
# REV (default: HEAD of build/linux) is checked out, detached, in the worktree
# build/linux-arm64; the build directory is build/kernel-arm64, configured as arm64's
# defconfig plus config/arm64-64k.config. Only the objects below are compiled, with
# aarch64-linux-gnu-gcc (apt-get install gcc-aarch64-linux-gnu) through ccache.
# Logs in build/results/cross-arm64/. Exits non-zero on a compile error or warning.
. "$(dirname "$0")/lib.sh"
set -euo pipefail

WT=$BUILD/linux-arm64
KO=$BUILD/kernel-arm64
FRAG=$TOP/config/arm64-64k.config
OUT=$RESULTS/cross-arm64
OBJS="mm/slub.o mm/page_alloc.o mm/mempolicy.o mm/page_isolation.o mm/slab_common.o mm/usercopy.o
	mm/memcontrol.o lib/tests/slub_kunit.o lib/tests/kmalloc_reclaim_kunit.o
	drivers/misc/lkdtm/usercopy.o lib/test_kmalloc_large_bench.o"

command -v aarch64-linux-gnu-gcc >/dev/null ||
	die "no aarch64-linux-gnu-gcc: apt-get install -y gcc-aarch64-linux-gnu"
rev=$(git -C "$TREE" rev-parse --verify "${1:-HEAD}^{commit}")
cc="ccache aarch64-linux-gnu-gcc"
export ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu-
kmake() { nice -n 19 make -C "$WT" O="$KO" CC="$cc" -j"$JOBS" "$@"; }
mkdir -p "$KO" "$OUT"

if [ -e "$WT/.git" ]; then
	git -C "$WT" checkout -q --detach "$rev"
else
	git -C "$TREE" worktree add -q --detach "$WT" "$rev"
fi
log "checked out $(git -C "$WT" log -1 --format='%h %s') in $WT"

log "config: defconfig + $(basename "$FRAG")"
{
	kmake defconfig
	(cd "$WT" && scripts/kconfig/merge_config.sh -m -O "$KO" "$KO/.config" "$FRAG")
	kmake olddefconfig
} >"$OUT/config.log" 2>&1 || die "configuration failed, see $OUT/config.log"
missing=$(grep -E '^(CONFIG_|# CONFIG_.* is not set)' "$FRAG" | grep -vxF -f "$KO/.config" || true)
for sym in CONFIG_MEMORY_ISOLATION=y CONFIG_CONTIG_ALLOC=y; do
	grep -qx "$sym" "$KO/.config" || missing="$missing $sym"
done
[ -z "$missing" ] || die "not set as asked in $KO/.config: $(echo "$missing" | tr "\n" " ")"
grep -qx CONFIG_KASAN=y "$KO/.config" && OBJS="$OBJS mm/kasan/common.o"
grep -qx CONFIG_KMSAN=y "$KO/.config" && OBJS="$OBJS mm/kmsan/hooks.o"

log "prepare"
kmake W=1 prepare >"$OUT/prepare.log" 2>&1 || die "make prepare failed, see $OUT/prepare.log"

bad=0
for obj in $OBJS; do
	# the object is removed so that its warnings are printed again (ccache replays them)
	rm -f "$KO/$obj"
	l=$OUT/$(echo "$obj" | tr / _).log
	if ! kmake W=1 "$obj" >"$l" 2>&1; then
		log "$obj: ERROR"
		bad=1
	elif grep -q 'warning:' "$l"; then
		log "$obj: $(grep -c 'warning:' "$l") warning(s)"
		bad=1
	else
		log "$obj: ok"
		continue
	fi
	grep -vE '^(make|  [A-Z]+ )' "$l" | sed 's/^/    /' >&2
done
[ "$bad" = 0 ] || die "errors or warnings (logs in $OUT)"
log "all $(echo "$OBJS" | wc -w) objects compile for arm64 with 64K pages, W=1, no warnings"
