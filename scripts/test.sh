#!/bin/bash
# make test: check the series, apply it, build the kernel and its initramfs, boot it once,
# and count the results of every suite. Ends with "N passed, N failed, N skipped".
. "$(dirname "$0")/lib.sh"

kdir=${KDIR:-$BUILD/kernel}
fragments=${FRAGMENTS:-$TOP/config/qemu.config}
mkdir -p "$RESULTS"
rm -rf "$RESULTS"/ktap "$RESULTS"/summary.txt

stage "packages" "$TOP/scripts/deps.sh" || exit 1
stage "tree" "$TOP/scripts/tree.sh" apply || exit 1
stage "checkpatch" "$TOP/scripts/check.sh" || die "check found problems in patches/ (see above)"
# shellcheck disable=SC2086
stage "kernel" "$TOP/scripts/build-kernel.sh" "$TREE" "$kdir" $fragments || exit 1
stage "initramfs" "$TOP/scripts/build-initramfs.sh" "$TREE" "$kdir" || exit 1
# slab_order's named case: an order for three caches, then a malformed value that must
# change nothing (lib/tests/slub_kunit.c test_min_order_named).
export QEMU_APPEND="${QEMU_APPEND:-} slab_min_order=4,TestSlub_order_named,TestSlub_order_named_small,TestSlub_order_named_nofb slab_min_order=99,TestSlub_order_named"
stage "boot and test" "$TOP/scripts/run-qemu.sh" "$kdir" test "$TOP/guest/test.job"
rc=$?
[ -d "$RESULTS/test/ktap" ] || die "no test results from the guest (job rc=$rc)"
mv "$RESULTS/test/ktap" "$RESULTS/ktap"
[ -f "$RESULTS/bench.json" ] || echo '{}' >"$RESULTS/bench.json"

# Count every suite with the kernel's own KTAP parser.
"$TOP/scripts/count-ktap.sh" "$RESULTS"/ktap/*.ktap | tee "$RESULTS/summary.txt"
tail -n1 "$RESULTS/summary.txt" | grep -q ', 0 failed' || exit 1
[ "$rc" -eq 0 ] || die "guest job failed with $rc"
log "total"
