#!/bin/bash
# Boot a built kernel in QEMU with the test initramfs.
# Usage: run-qemu.sh KDIR NAME [JOB]
#   KDIR: kernel build dir (bzImage, initramfs.cpio.gz); NAME: names the console log and the
#   results directory under build/results; JOB: a guest script run as /job, its results
#   unpacked to build/results/NAME/. Without JOB: an interactive shell on the console.
# Environment: QEMU_MEM (default 1G), QEMU_SMP (2), QEMU_TIMEOUT (seconds, default 1800),
# QEMU_APPEND (extra kernel command line), QEMU_CPU (-cpu model, default max), INITRD (another
# kernel's initramfs).
. "$(dirname "$0")/lib.sh"

kdir=$(realpath -m "${1:?usage: run-qemu.sh KDIR NAME [JOB]}")
name=${2:?usage: run-qemu.sh KDIR NAME [JOB]}
job=${3:-}
work=$kdir/run-$name
console=$RESULTS/console-$name.log
rm -rf "$work" "$RESULTS/${name:?}"
mkdir -p "$work" "$RESULTS"

# KVM only where it can run a normal guest: /dev/kvm alone is not enough (kvm-pvm hosts
# have one, and the guest hangs in the decompressor).
accel=tcg
if [ -w /dev/kvm ] && grep -qwE 'vmx|svm' /proc/cpuinfo; then
	accel=kvm
fi

initrd=${INITRD:-$kdir/initramfs.cpio.gz}
if [ -n "$job" ]; then
	# The job rides in a second cpio archive, concatenated: the kernel unpacks both.
	mkdir -p "$work/jobroot"
	cp "$job" "$work/jobroot/job"
	chmod +x "$work/jobroot/job"
	(cd "$work/jobroot" && echo job | cpio -o -H newc --quiet -R 0:0 | gzip -1) >"$work/job.cpio.gz"
	cat "$initrd" "$work/job.cpio.gz" >"$work/initrd.gz"
	initrd=$work/initrd.gz
fi

# ima_policy=tcb: IMA measures what root reads, for the reclaim kselftest's IMA case; it
# leaves tmpfs (the initramfs) alone.
# A scratch ext4 disk for the filesystem tests, and an empty disk for the results.
truncate -s 2G "$work/scratch.img"
mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$work/scratch.img" ||
	die "mkfs.ext4 failed"
truncate -s 256M "$work/results.img"

qemu=(qemu-system-x86_64 -machine q35 -accel "$accel" -cpu "${QEMU_CPU:-max}" -m "${QEMU_MEM:-1G}"
	-smp "${QEMU_SMP:-2}" -nographic -no-reboot
	-kernel "$kdir/arch/x86/boot/bzImage" -initrd "$initrd"
	-append "console=ttyS0 panic=-1 oops=continue loglevel=4 ima_policy=tcb ${QEMU_APPEND:-}"
	-drive "file=$work/scratch.img,format=raw,if=none,id=scratch"
	-device virtio-blk-pci,drive=scratch,serial=scratch
	-drive "file=$work/results.img,format=raw,if=none,id=results"
	-device virtio-blk-pci,drive=results,serial=results)

if [ -z "$job" ]; then
	log "booting $name ($accel), interactive; 'poweroff -f' leaves"
	"${qemu[@]}" -serial mon:stdio -monitor none 2>&1 | tee "$console"
	exit 0
fi

log "booting $name ($accel, timeout ${QEMU_TIMEOUT:-1800}s), console: $console"
timeout --foreground -k 10 "${QEMU_TIMEOUT:-1800}" "${qemu[@]}" -serial "file:$console" \
	-monitor none </dev/null >"$work/qemu.out" 2>&1
rc=$?
[ $rc -eq 124 ] && log "$name: QEMU timed out after ${QEMU_TIMEOUT:-1800}s"
[ $rc -ne 0 ] && [ $rc -ne 124 ] && { cat "$work/qemu.out" >&2; log "$name: QEMU exited with $rc"; }

mkdir -p "$RESULTS/$name"
if ! tar -C "$RESULTS/$name" -xf "$work/results.img" 2>/dev/null || [ ! -f "$RESULTS/$name/job.rc" ]; then
	tail -30 "$console" >&2
	die "$name: the guest reported no results (crashed, hung or timed out); see $console"
fi
log "$name: guest job exited with $(cat "$RESULTS/$name/job.rc")"
exit "$(cat "$RESULTS/$name/job.rc")"
