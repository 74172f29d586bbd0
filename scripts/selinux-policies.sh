#!/bin/bash
# Build the SELinux test policies for a kernel tree with its own scripts/selinux/mdp (built
# with the kernel when CONFIG_SECURITY_SELINUX is set) and Debian's checkpolicy (base.conf),
# which is unpacked into the cache, not installed.
# Usage: selinux-policies.sh KDIR OUT
#   dummy.pol  the mdp dummy policy (MLS; every class, one type, everything allowed)
#   bool.pol   the dummy policy plus types test_t and perm_t (permissive), booleans and
#              portcon/nodecon/netifcon/genfscon entries
#   large.pol  the dummy policy plus TYPES types, RULES avtab rules and BOOLS booleans
#              (scripts/selinux-large-policy.sh)
. "$(dirname "$0")/lib.sh"
. "$TOP/base.conf"

kdir=$(realpath -m "${1:?usage: selinux-policies.sh KDIR OUT}")
out=$(realpath -m "${2:?usage: selinux-policies.sh KDIR OUT}")
mdp=$kdir/scripts/selinux/mdp/mdp
[ -x "$mdp" ] || die "no $mdp (CONFIG_SECURITY_SELINUX not set in $kdir?)"

deb=$(fetch_deb "$CHECKPOLICY_SUITE" checkpolicy "$CHECKPOLICY_VERSION" "$CHECKPOLICY_SHA256") ||
	exit 1
cp_dir=$CACHE/checkpolicy-$CHECKPOLICY_VERSION
if [ ! -x "$cp_dir/usr/bin/checkpolicy" ]; then
	rm -rf "$cp_dir" && dpkg-deb -x "$deb" "$cp_dir" || die "dpkg-deb -x $deb failed"
fi
checkpolicy() { "$cp_dir/usr/bin/checkpolicy" -U allow -M -o "$out/$1.pol" "$out/$1.conf"; }

rm -rf "$out" && mkdir -p "$out"
cd "$out" || exit 1
"$mdp" -m dummy.conf file_contexts || die "mdp failed"
rm -f file_contexts
# checkpolicy 3.4 does not know the newest policy capabilities that mdp lists.
sed -i -E '/^policycap (userspace_initial_context|netlink_xperm|netif_wildcard|genfs_seclabel_wildcard|functionfs_seclabel|memfd_class|bpf_token_perms);/d' \
	dummy.conf

# bool.pol: test_t is an object type that pm_test opens to base_t, and a domain that base_t
# may enter with a write to /proc/self/attr/current and that may do nothing else; perm_t is
# permissive (a permissive_map bit); load_t, entered the same way, may use base_t's files,
# /sys/fs/selinux/load included, but has no security permission (lkdtm_writes.sh). Every kind of ocontext whose SID the kernel looks up
# lazily and that this kernel can reach has an entry: port, node, netif (only looked up with
# labeled networking), genfs (/proc/cmdline); fs_use comes with the dummy policy.
ctx=user_u:object_r:test_t:s0
sed -e "s/^type base_t;\$/&\ntype test_t;\ntype perm_t;\ntype load_t;\npermissive perm_t;\nbool pm_test false;\nbool pm_other true;/" \
    -e "s/^role base_r types { base_t };\$/role base_r types { base_t test_t perm_t load_t };\nallow base_t test_t:process dyntransition;\nallow base_t load_t:process dyntransition;\nallow load_t self:process *;\nallow load_t base_t:{ process file dir lnk_file chr_file blk_file fifo_file sock_file fd filesystem } *;\nif (pm_test) {\n\tallow base_t test_t:file { read open getattr };\n} else {\n\tallow base_t test_t:file { getattr };\n}\nif (pm_other \&\& !pm_test) {\n\tallow base_t perm_t:file { read };\n}/" \
    dummy.conf >bool.conf
cat >>bool.conf <<EOC
genfscon proc /cmdline $ctx
portcon tcp 80 $ctx
portcon udp 53 $ctx
netifcon lo $ctx $ctx
nodecon 127.0.0.1 255.255.255.255 $ctx
EOC
# checkpolicy wants the ocontext statements in order: fs_use, genfscon, portcon, netifcon,
# nodecon. Sort the tail of the file by that order.
awk '
	function rank(l) {
		if (l ~ /^fs_use/) return 1; if (l ~ /^genfscon/) return 2;
		if (l ~ /^portcon/) return 3; if (l ~ /^netifcon/) return 4;
		if (l ~ /^nodecon/) return 5; return 0
	}
	rank($0) { tail[rank($0)] = tail[rank($0)] $0 "\n"; next }
	{ print }
	END { for (i = 1; i <= 5; i++) printf "%s", tail[i] }
' bool.conf >bool.conf.tmp && mv bool.conf.tmp bool.conf

"$TOP/scripts/selinux-large-policy.sh" dummy.conf >large.conf || die "large policy generation failed"

for p in dummy bool large; do
	checkpolicy $p >checkpolicy-$p.log 2>&1 ||
		{ tail -5 checkpolicy-$p.log >&2; die "checkpolicy $p.conf failed"; }
done
log "SELinux policies in $out: $(for p in dummy bool large; do printf '%s %s B; ' $p.pol "$(stat -c %s $p.pol)"; done)"
