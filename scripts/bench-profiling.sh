#!/bin/bash
# make bench-profiling: large kmalloc() runs on a kernel with allocation profiling,
# page_owner, init_on_alloc and DEBUG_VM (config/profiling.config): what /proc/allocinfo
# and page_owner record for them must match a known count while held and balance once they
# are freed, after the large kmalloc benchmark too, with no warning in the kernel log
# (guest/bench-large-profiling.job; figures large.profiling.*). Fails if one does not
# hold. Not in make bench: it needs a kernel of its own.
. "$(dirname "$0")/lib.sh"

KDIR=$BUILD/kernel-profiling
stage "tree" "$TOP/scripts/tree.sh" apply || exit 1
stage "kernel" "$TOP/scripts/build-kernel.sh" "$TREE" "$BUILD/kernel" "$TOP/config/qemu.config" ||
	exit 1
stage "initramfs" "$TOP/scripts/build-initramfs.sh" "$TREE" "$BUILD/kernel" || exit 1
stage "profiling kernel" "$TOP/scripts/build-kernel.sh" "$TREE" "$KDIR" \
	"$TOP/config/qemu.config" "$TOP/config/profiling.config" || exit 1
# The series kernel's initramfs: the job uses no module. The benchmark's per-range and
# uniform workloads only (timing_only), short: they are run for what they allocate and
# free, and page_owner, init_on_alloc and DEBUG_VM make each operation slow under TCG.
ARGS="test_kmalloc_large_bench.timing_only=1 test_kmalloc_large_bench.churn=2"
ARGS="$ARGS test_kmalloc_large_bench.range_mib=4 test_kmalloc_large_bench.objects=64"
INITRD=$BUILD/kernel/initramfs.cpio.gz QEMU_MEM=5G QEMU_APPEND="page_owner=on kunit.autorun=0 $ARGS" \
	stage "bench large kmalloc, profiling" "$TOP/scripts/run-qemu.sh" "$KDIR" \
	bench-large-profiling "$TOP/guest/bench-large-profiling.job" ||
	die "large kmalloc profiling check failed (see $RESULTS/bench-large-profiling/job.log)"
grep '^# bench: large.profiling' "$RESULTS/bench-large-profiling/job.log" ||
	die "no large.profiling figure in $RESULTS/bench-large-profiling/job.log"
