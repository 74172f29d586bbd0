#!/bin/bash
# make bench-profiling: the large kmalloc benchmark once on a kernel with allocation
# profiling, page_owner and init_on_alloc (config/profiling.config), to show that what the
# hooks record for page runs balances: after the benchmark has freed everything, the bytes
# and calls /proc/allocinfo gives its file and the pages page_owner gives its large
# allocations are back where they were before it (large.profiling.*_delta = 0); halfway
# through they are not (..._during > 0). Not in make bench: it needs a kernel of its own.
. "$(dirname "$0")/lib.sh"

KDIR=$BUILD/kernel-profiling
stage "tree" "$TOP/scripts/tree.sh" apply || exit 1
stage "kernel" "$TOP/scripts/build-kernel.sh" "$TREE" "$BUILD/kernel" "$TOP/config/qemu.config" ||
	exit 1
stage "initramfs" "$TOP/scripts/build-initramfs.sh" "$TREE" "$BUILD/kernel" || exit 1
stage "profiling kernel" "$TOP/scripts/build-kernel.sh" "$TREE" "$KDIR" \
	"$TOP/config/qemu.config" "$TOP/config/profiling.config" || exit 1
# The series kernel's initramfs: the job uses no module. timing_only: the per-range and
# uniform workloads, without the memory fill that page_owner would make slow.
INITRD=$BUILD/kernel/initramfs.cpio.gz QEMU_MEM=5G QEMU_APPEND="page_owner=on test_kmalloc_large_bench.timing_only=1" \
	stage "bench large kmalloc, profiling" "$TOP/scripts/run-qemu.sh" "$KDIR" \
	bench-large-profiling "$TOP/guest/bench-large-profiling.job" ||
	die "large kmalloc bench (profiling) failed"
grep '^# bench: large.profiling' "$RESULTS/bench-large-profiling/job.log" ||
	die "no large.profiling figure in $RESULTS/bench-large-profiling/job.log"
