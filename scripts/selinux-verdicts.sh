#!/bin/bash
# make selinux-verdicts: record what the unpatched base answers to the SELinux selftests that
# make test compares the series with:
#   guest/selinux-malformed.verdicts            selinux_malformed: the verdict on each malformed
#                                               policy made from the dummy policy (accepted, or
#                                               the errno of the rejection)
#   guest/selinux-refpolicy.verdicts            selinux_refpolicy: the access decisions of the
#                                               reference policy's triples, before and after
#                                               the boolean flips
#   guest/selinux-refpolicy-malformed.verdicts  selinux_malformed_refpolicy.sh: the verdicts on
#                                               the reference policy's mutants
# Run it when the dummy policy (the kernel's mdp, base.conf's checkpolicy), the reference
# policy, its triples and booleans (base.conf, scripts/selinux-refpolicy.sh) or the mutants
# change: the tests refuse a verdict file made for another policy. make bench compares both
# kernels afresh (selinux.malformed_same_verdict, selinux.refpolicy_decisions_same).
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
echo "mmtest: selinux_malformed"
SELINUX_MALFORMED_OUT=/results/malformed.verdicts ./selinux_malformed
[ -f policies/refpolicy.pol ] || exit 0
echo "mmtest: selinux_refpolicy"
SELINUX_REFPOLICY_OUT=/results/refpolicy.verdicts ./selinux_refpolicy
echo "mmtest: selinux_malformed_refpolicy.sh"
SELINUX_MALFORMED_OUT=/results/refpolicy-malformed.verdicts ./selinux_malformed_refpolicy.sh
EOJ
INITRD=$BUILD/kernel/initramfs.cpio.gz stage "SELinux verdicts, base" \
	"$TOP/scripts/run-qemu.sh" "$BUILD/kernel-base" selinux-verdicts "$job" ||
	die "the base's run failed (see $RESULTS/selinux-verdicts/job.log)"
v=$RESULTS/selinux-verdicts/malformed.verdicts
[ -s "$v" ] || die "no verdicts from the base"
cp "$v" "$TOP/guest/selinux-malformed.verdicts"
log "guest/selinux-malformed.verdicts: $(($(wc -l <"$v") - 1)) verdicts," \
	"$(grep -c ' accepted$' "$v") accepted"
v=$RESULTS/selinux-verdicts/refpolicy.verdicts
[ -s "$v" ] || die "no reference policy verdicts from the base (no reference policy?)"
cp "$v" "$TOP/guest/selinux-refpolicy.verdicts"
log "guest/selinux-refpolicy.verdicts: $(($(wc -l <"$v") - 1)) triples," \
	"$(tail -n +2 "$v" | grep -vc ' =$') changed by the boolean flips"
v=$RESULTS/selinux-verdicts/refpolicy-malformed.verdicts
[ -s "$v" ] || die "no verdicts on the reference policy's mutants from the base"
cp "$v" "$TOP/guest/selinux-refpolicy-malformed.verdicts"
log "guest/selinux-refpolicy-malformed.verdicts: $(($(wc -l <"$v") - 1)) verdicts," \
	"$(grep -c ' accepted$' "$v") accepted"
