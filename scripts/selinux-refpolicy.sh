#!/bin/bash
# Debian's SELinux reference policy (selinux-policy-default, base.conf) as one kernel policy
# image, and the access checks the refpolicy tests and make bench ask of it.
# Usage: selinux-refpolicy.sh OUT
#   refpolicy.pol      the policy's modules linked (semodule_link) and expanded into a kernel
#                      policy of version 33 (semodule_expand, semodule-utils of base.conf)
#   refpolicy.triples  "scontext tcontext class" lines drawn from the policy's rules
#   refpolicy.bools    booleans that govern conditional rules of the triples, to flip
# The packages are unpacked into the cache, not installed; the results are cached by the
# versions of the packages and by this script, so a second run only copies them.
. "$(dirname "$0")/lib.sh"
. "$TOP/base.conf"

out=$(realpath -m "${1:?usage: selinux-refpolicy.sh OUT}")
# What the triples and booleans are drawn with: changing a count changes the triples, and
# the verdict files must then be recorded again (make selinux-verdicts).
NR_UNCOND=6500	# from unconditional allow, dontaudit and auditallow rules
NR_COND=3500	# from the conditional rules of the chosen booleans, both branches
NR_RANDOM=1500	# type pairs and a class drawn at random: mostly denials
NR_BOOLS=40	# the booleans that govern the most conditional rules

key=$( { cat "$0"; echo "$REFPOLICY_VERSION $SEMODULE_UTILS_VERSION $CHECKPOLICY_VERSION"; } |
	sha256sum | cut -c1-12)
cache=$CACHE/refpolicy-${REFPOLICY_VERSION//:/_}-$key
# One run at a time makes the cache (two builds of initramfs, of two kernel trees, may
# run at once).
mkdir -p "$CACHE" && exec 9>"$CACHE/refpolicy.lock" && flock 9 ||
	die "cannot lock $CACHE/refpolicy.lock"
if [ -s "$cache/refpolicy.pol" ] && [ -s "$cache/refpolicy.triples" ] &&
   [ -s "$cache/refpolicy.bools" ]; then
	mkdir -p "$out" && cp "$cache"/refpolicy.{pol,triples,bools} "$out/" || exit 1
	log "refpolicy: $out/refpolicy.pol from the cache ($cache)"
	exit 0
fi

pol_deb=$(fetch_deb "$REFPOLICY_SUITE" selinux-policy-default "$REFPOLICY_VERSION" \
	"$REFPOLICY_SHA256") || exit 1
su_deb=$(fetch_deb "$REFPOLICY_SUITE" semodule-utils "$SEMODULE_UTILS_VERSION" \
	"$SEMODULE_UTILS_SHA256") || exit 1
cp_deb=$(fetch_deb "$CHECKPOLICY_SUITE" checkpolicy "$CHECKPOLICY_VERSION" \
	"$CHECKPOLICY_SHA256") || exit 1

work=$cache.tmp
rm -rf "$work" && mkdir -p "$work/pp" || exit 1
cd "$work" || exit 1
for d in "$pol_deb" "$su_deb" "$cp_deb"; do
	dpkg-deb -x "$d" root || die "dpkg-deb -x $d failed"
done
log "refpolicy: unpacking the modules of selinux-policy-default $REFPOLICY_VERSION"
for f in root/usr/share/selinux/default/*.pp.bz2; do
	n=${f##*/}
	bzcat "$f" >"pp/${n%.bz2}" || die "bzcat $f failed"
done
# base.pp first, then the other modules in a fixed order.
mods=$(cd pp && printf '%s\n' *.pp | LC_ALL=C sort | grep -vx base.pp | sed 's|^|pp/|')
[ -s pp/base.pp ] && [ -n "$mods" ] || die "no modules in selinux-policy-default"
log "refpolicy: linking $(($(echo "$mods" | wc -l) + 1)) modules (semodule_link)"
# shellcheck disable=SC2086
root/usr/bin/semodule_link -o linked.pp pp/base.pp $mods >link.log 2>&1 ||
	{ tail -5 link.log >&2; die "semodule_link failed (see $work/link.log)"; }
log "refpolicy: expanding into a kernel policy of version 33 (semodule_expand)"
root/usr/bin/semodule_expand -c 33 linked.pp refpolicy.pol >expand.log 2>&1 ||
	{ tail -5 expand.log >&2; die "semodule_expand failed"; }
sum=$(sha256sum refpolicy.pol | cut -d' ' -f1)
[ "$sum" = "$REFPOLICY_POL_SHA256" ] ||
	log "WARNING: refpolicy.pol's sha256 is $sum, not base.conf's $REFPOLICY_POL_SHA256:" \
		"the verdict files were recorded for another policy (make selinux-verdicts)"
root/usr/bin/checkpolicy -M -b -F -o refpolicy.conf refpolicy.pol >checkpolicy.log 2>&1 ||
	{ tail -5 checkpolicy.log >&2; die "checkpolicy could not dump refpolicy.pol"; }

# The triples and the booleans, from the policy's text. Types are "system_u:object_r:T:s0"
# (a valid context for any type: object_r may have any type, and s0 is in every range). A
# rule's attribute becomes one of its member types, "self" the source type. The choices
# come from a Park-Miller generator in plain arithmetic (exact in awk's doubles), so that
# every machine draws the same triples; "for (k in a)", whose order awk does not define,
# is not used for anything that is printed.
log "refpolicy: drawing the triples and the booleans"
LC_ALL=C awk -v nu=$NR_UNCOND -v nc=$NR_COND -v nr=$NR_RANDOM -v nb=$NR_BOOLS \
	-v triples=refpolicy.triples -v bools=refpolicy.bools '
	function rnd(n) { seed = (seed * 16807) % 2147483647; return seed % n }
	function member(x) {
		if (x in istype) return x
		return nmem[x] ? mem[x, rnd(nmem[x])] : ""
	}
	# add(S, T, C): one triple, once; returns 1 if printed
	function add(s, t, c,    k) {
		s = member(s)
		t = t == "self" ? s : member(t)
		if (s == "" || t == "") return 0
		k = s " " t " " c
		if (k in seen) return 0
		seen[k] = 1
		printf "system_u:object_r:%s:s0 system_u:object_r:%s:s0 %s\n", s, t, c >triples
		return 1
	}
	function rule(   st, p) {
		p = index($3, ":")
		src[n] = $2; dst[n] = substr($3, 1, p - 1); cls[n] = substr($3, p + 1)
	}
	$1 == "type" { t = $2; sub(/;$/, "", t); istype[t] = 1; types[ntypes++] = t; next }
	$1 == "typeattribute" {
		for (i = 3; i <= NF; i++) {
			a = $i; sub(/[,;]$/, "", a)
			mem[a, nmem[a]++] = $2
		}
		next
	}
	$1 == "bool" { isbool[$2] = 1; next }
	$1 == "class" && NF == 2 { classes[nclasses++] = $2; next }
	/^if / {
		blk++; incond = 1; e = $0; gsub(/[^A-Za-z0-9_]+/, " ", e)
		nw = split(e, w, " ")
		for (i = 1; i <= nw; i++)
			if (w[i] in isbool && !((blk, w[i]) in bb)) {
				bb[blk, w[i]] = 1; bbool[blk, nbb[blk]++] = w[i]
			}
		next
	}
	incond && /^}$/ { incond = 0; next }
	$1 ~ /^(allow|dontaudit|auditallow)$/ && $3 ~ /:/ {
		if (incond) {
			n = nc_all++; cblk[n] = blk
			for (i = 0; i < nbb[blk]; i++) per[bbool[blk, i]]++
			n = "c" n
		} else {
			n = nu_all++
		}
		rule()
	}
	END {
		# The booleans that govern the most conditional rules (ties by name), but the
		# secure_mode ones, which say whether policy loads and boolean changes are allowed.
		for (i = 0; i < nc_all; i++)
			for (j = 0; j < nbb[cblk[i]]; j++) {
				b = bbool[cblk[i], j]
				if (!(b in bidx)) { bidx[b] = nbl; bl[nbl++] = b }
			}
		for (i = 1; i < nbl; i++)
			for (j = i; j > 0 && (per[bl[j - 1]] < per[bl[j]] ||
			     per[bl[j - 1]] == per[bl[j]] && bl[j - 1] > bl[j]); j--) {
				x = bl[j]; bl[j] = bl[j - 1]; bl[j - 1] = x
			}
		for (i = 0; i < nbl && chosen < nb; i++) {
			if (bl[i] ~ /^secure_mode/) continue
			pick[bl[i]] = 1; print bl[i] >bools; chosen++
		}
		for (i = 0; i < nc_all; i++)
			for (j = 0; j < nbb[cblk[i]]; j++)
				if (bbool[cblk[i], j] in pick) { cand[ncand++] = i; break }
		seed = 20221101
		for (got = tries = 0; got < nu && tries < 20 * nu; tries++) {
			i = rnd(nu_all)
			got += add(src[i], dst[i], cls[i])
		}
		for (got = tries = 0; got < nc && tries < 20 * nc && ncand; tries++) {
			i = "c" cand[rnd(ncand)]
			got += add(src[i], dst[i], cls[i])
		}
		for (got = tries = 0; got < nr && tries < 20 * nr; tries++)
			got += add(types[rnd(ntypes)], types[rnd(ntypes)], classes[rnd(nclasses)])
		printf "%d types, %d classes, %d unconditional and %d conditional rules, %d booleans\n",
			ntypes, nclasses, nu_all, nc_all, nbl >"/dev/stderr"
	}' refpolicy.conf 2>triples.log || die "drawing the triples failed"
log "refpolicy: $(cat triples.log)"
nt=$(wc -l <refpolicy.triples) nb=$(wc -l <refpolicy.bools)
[ "$nt" -ge 10000 ] && [ "$nb" -ge 30 ] ||
	die "only $nt triples and $nb booleans drawn from refpolicy.conf"
# The caches of other versions or of older copies of this script go.
for d in "$CACHE"/refpolicy-*; do
	[ "$d" = "$work" ] || rm -rf "$d"
done
mkdir -p "$cache" &&
	cp refpolicy.pol refpolicy.triples refpolicy.bools refpolicy.conf "$cache/" || exit 1
cd / && rm -rf "$work"
mkdir -p "$out" && cp "$cache"/refpolicy.{pol,triples,bools} "$out/" || exit 1
log "refpolicy: $out/refpolicy.pol ($(stat -c %s "$out/refpolicy.pol") B)," \
	"$nt triples, $nb booleans"
