#!/bin/bash
# make bench: run guest/bench.job on the patched kernel and on the unpatched base, in one
# run, and gather their "# bench: NAME VALUE" lines into build/results/bench.json. A base
# figure is named with ".base" after its first component: reclaim.base.dentry_... .
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

# figures NAME: the "bench: NAME VALUE" lines of a boot, from its job's output ("# bench:")
# and from benchmark modules in its kernel log on the console ("[ time] bench:").
figures() {
	sed -n 's/^# bench: \([^ ]*\) \([^ ]*\)$/\1 \2/p' "$RESULTS/$1/job.log"
	tr -d '\r' <"$RESULTS/console-$1.log" | sed -n 's/^\[[ 0-9.]*\] bench: \([^ ]*\) \([^ ]*\)$/\1 \2/p'
}
{
	figures bench
	figures bench-base | sed 's/^\([^.]*\)\./\1.base./'
} | awk '!($1 in v) { k[n++] = $1 } { v[$1] = $2 }
	END { printf "{"; for (i = 0; i < n; i++) printf "%s\n  \"%s\": %s", (i ? "," : ""), k[i], v[k[i]]; print "\n}" }' \
	>"$RESULTS/bench.json" || die "writing bench.json failed"
cat "$RESULTS/bench.json"
stage "plot" "$TOP/scripts/plot-large.sh" || exit 1
log "bench: done"
