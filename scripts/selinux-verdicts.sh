#!/bin/bash
# make selinux-verdicts: record in guest/selinux-malformed.verdicts the verdict the unpatched
# base gives each malformed policy of the SELinux selftest selinux_malformed (accepted, or
# the errno of the rejection), which make test compares the series with. Run it when the
# dummy policy (the kernel's mdp, base.conf's checkpolicy) or the mutants change: the test
# refuses a verdict file made for another dummy policy. make bench compares both kernels
# afresh (selinux.malformed_same_verdict).
. "$(dirname "$0")/lib.sh"

stage "packages" "$TOP/scripts/deps.sh" || exit 1
stage "tree" "$TOP/scripts/tree.sh" apply || exit 1
stage "kernel" "$TOP/scripts/build-kernel.sh" "$TREE" "$BUILD/kernel" "$TOP/config/qemu.config" || exit 1
stage "initramfs" "$TOP/scripts/build-initramfs.sh" "$TREE" "$BUILD/kernel" || exit 1
build_base || exit 1

job=$BUILD/selinux-verdicts.job
cat >"$job" <<'EOJ'
#!/bin/sh
cd /kselftest/selinux || exit 1
SELINUX_MALFORMED_OUT=/results/malformed.verdicts ./selinux_malformed
EOJ
INITRD=$BUILD/kernel/initramfs.cpio.gz stage "malformed policies, base" \
	"$TOP/scripts/run-qemu.sh" "$BUILD/kernel-base" selinux-verdicts "$job" ||
	die "the base's run failed (see $RESULTS/selinux-verdicts/job.log)"
v=$RESULTS/selinux-verdicts/malformed.verdicts
[ -s "$v" ] || die "no verdicts from the base"
cp "$v" "$TOP/guest/selinux-malformed.verdicts"
log "guest/selinux-malformed.verdicts: $(($(wc -l <"$v") - 1)) verdicts," \
	"$(grep -c ' accepted$' "$v") accepted"
