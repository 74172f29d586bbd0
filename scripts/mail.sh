#!/bin/bash
# make mail: one ready-to-send mbox per series, in build/mail/. Sends nothing.
#
# For each series of the tree (see tree.sh): git format-patch with its cover letter and
# diffstat, To: the maintainers and Cc: the reviewers and lists that get_maintainer.pl
# names for each patch (the cover letter to all of them), the base and the series it
# needs below it. Then it checks what it wrote: each mbox applies with git am to a fresh
# base alone or after its stated prerequisites and gives the tree's series exactly,
# checkpatch --strict passes on every patch, every patch has a To:, each cover letter's
# references to its patches are right (check-cover.sh), and no file names a path of this
# machine. Each commit with a Fixes: trailer is also mailed alone (fixes.mbox), applying to
# the base by itself.
#
# Environment: MAIL_FROM="Name <address>" sends as that person: From: and a Signed-off-by:
# of theirs on every patch (git format-patch --from --signoff). SUBJECT_PREFIX (PATCH).
. "$(dirname "$0")/lib.sh"
. "$TOP/base.conf"

out=$BUILD/mail
stage "tree" "$TOP/scripts/tree.sh" apply || exit 1
cd "$TREE" || exit 1
rm -rf "$out"
mkdir -p "$out"

from=()
if [ -n "${MAIL_FROM:-}" ]; then
	name=${MAIL_FROM% <*} email=${MAIL_FROM##*<}
	from=(--from="$MAIL_FROM" --signoff)
	export GIT_COMMITTER_NAME="$name" GIT_COMMITTER_EMAIL="${email%>}"
fi

# The base: Debian's tree, which is v7.3.4 with Debian's patches applied, so its commit id
# here is nobody else's. base.conf's UPSTREAM_BASE_COMMIT names the upstream commit when
# it is known to give the same files.
if [ -n "${UPSTREAM_BASE_COMMIT:-}" ]; then
	echo "base-commit: $UPSTREAM_BASE_COMMIT" >"$out/.base"
else
	printf '%s\n%s\n' "Based on Linux $BASE_VERSION_UPSTREAM as packaged by Debian ($BASE_PACKAGE" \
		"$BASE_VERSION, with Debian's patches), so no upstream base-commit." >"$out/.base"
fi

# maintainers END PATCH...: get_maintainer.pl on the patches with MAINTAINERS as of END,
# as "to|Name <address>" (maintainers) and "cc|Name <address>" (reviewers, lists) lines.
maintainers() {
	local end=$1
	shift
	git show "$end:MAINTAINERS" >"$out/.MAINTAINERS"
	./scripts/get_maintainer.pl --mpath "$out/.MAINTAINERS" --no-git --no-git-fallback \
		--rolestats "$@" 2>/dev/null |
		sed -n -e 's/^\(.*>\) (\(maintainer\|supporter\|odd fixer\):.*/to|\1/p' \
			-e 's/^\(.*>\) (.*/cc|\1/p' -e 's/^\([^ ]*@[^ ]*\) (.*/cc|\1/p'
}

# headers FILE LIST: add To: and Cc: (from maintainers' lines in LIST) after Subject:.
headers() {
	local f=$1 list=$2
	{
		grep '^to|' "$list" | cut -d'|' -f2- | sort -u | paste -sd, | sed 's/,/,\n    /g; s/^/To: /'
		grep '^cc|' "$list" | cut -d'|' -f2- | sort -u |
			grep -vxFf <(grep '^to|' "$list" | cut -d'|' -f2-) |
			paste -sd, | sed 's/,/,\n    /g; s/^/Cc: /'
	} | sed '/^[TC][oc]: $/d' >"$f.hdr"
	awk -v hdr="$f.hdr" '!done && /^$/ { while ((getline l < hdr) > 0) print l; done = 1 } { print }' \
		"$f" >"$f.new" && mv "$f.new" "$f" && rm -f "$f.hdr"
}

"$TOP/scripts/tree.sh" groups >"$out/.groups" || exit 1
while read -r d marker end; do
	log "mail: $d ($(git rev-list --count "$marker..$end") patches)"
	# --base lists the commits between the base and this series as prerequisite-patch-id
	# lines.
	git branch -f mm-series-mail "$end" >/dev/null
	git -c branch.mm-series-mail.description="$(marker_text "$marker")" format-patch -q \
		--cover-letter --cover-from-description=subject --numbered --thread=shallow \
		--subject-prefix="${SUBJECT_PREFIX:-PATCH}" --no-signature --base=base "${from[@]}" \
		-o "$out/$d" "$marker..mm-series-mail" || die "git format-patch of $d failed"
	git branch -D mm-series-mail >/dev/null
	cover=$out/$d/0000-cover-letter.patch
	# The markers, being empty, get an all-zero patch id: not a prerequisite.
	sed -i -e "/^base-commit: /r $out/.base" -e '/^base-commit: /d' \
		-e '/^prerequisite-patch-id: 0\{40\}$/d' "$cover"
	: >"$out/.all"
	for p in "$out/$d"/0*.patch; do
		[ "$p" = "$cover" ] && continue
		maintainers "$end" "$p" >"$out/.one"
		cat "$out/.one" >>"$out/.all"
		# The Cc: trailers of a patch (people get_maintainer.pl misses, whom git send-email
		# adds to that patch) get the cover letter too.
		sed -n -e '/^---$/q' -e 's/^Cc: \(.*\)/cc|\1/p' "$p" >>"$out/.all"
		headers "$p" "$out/.one"
	done
	headers "$cover" "$out/.all"
done <"$out/.groups"
rm -f "$out/.MAINTAINERS" "$out/.one" "$out/.all" "$out/.base"

# Check it. A scratch worktree at the base; each mbox on its own first, then, if that does
# not apply, after the series below it, which its cover letter must then name.
check=$BUILD/mail-check
git worktree remove --force "$check" >/dev/null 2>&1
git worktree add -q --detach "$check" base || die "cannot make $check"
am() { git -C "$check" am -q --empty=drop --keep-cr "$@" >/dev/null 2>&1 || { git -C "$check" am --abort >/dev/null 2>&1; return 1; }; }
fail=0 below=()
: >"$out/summary.txt"
while read -r d marker end; do
	cat "$out/$d"/0*.patch >"$out/$d.mbox"
	git -C "$check" checkout -q --detach base
	if am "$out/$d.mbox"; then
		how="applies to the base alone"
		sed -i '/^prerequisite-patch-id: /d' "$out/$d/0000-cover-letter.patch"
		cat "$out/$d"/0*.patch >"$out/$d.mbox"
	else
		git -C "$check" checkout -q --detach base
		ok=1
		for b in "${below[@]}"; do am "$out/$b.mbox" || ok=0; done
		[ $ok -eq 1 ] && am "$out/$d.mbox" || ok=0
		if [ $ok -eq 1 ] && grep -q '^prerequisite-patch-id: ' "$out/$d/0000-cover-letter.patch"; then
			how="applies after ${below[*]}, its stated prerequisites"
		else
			how="FAILS: does not apply to the base, alone or after ${below[*]:-nothing}"
			fail=1
		fi
	fi
	# The mboxes stacked must give the tree's series exactly.
	if [[ $how != FAILS* ]] && [ "$(git -C "$check" rev-parse 'HEAD^{tree}')" != "$(git rev-parse "$end^{tree}")" ]; then
		git -C "$check" checkout -q --detach base
		for b in "${below[@]}" "$d"; do am "$out/$b.mbox"; done
		[ "$(git -C "$check" rev-parse 'HEAD^{tree}')" = "$(git rev-parse "$end^{tree}")" ] ||
			{ how="$how; FAILS: the result differs from the tree"; fail=1; }
	fi
	# The cover letter names each patch it refers to by number and subject, which must be
	# right (check-cover.sh prints what is not).
	if ! "$TOP/scripts/check-cover.sh" "$marker" "$end" >>"$out/cover-refs.txt"; then
		grep "^$d: " "$out/cover-refs.txt"
		how="$how; FAILS: $(grep -c "^$d: " "$out/cover-refs.txt") wrong patch references in the cover letter (build/mail/cover-refs.txt)"
		fail=1
	fi
	n=$(ls "$out/$d"/0*.patch | wc -l)
	noto=$(grep -L '^To: ' "$out/$d"/0*.patch | wc -l)
	[ "$noto" -eq 0 ] || { how="$how; FAILS: $noto files without To:"; fail=1; }
	printf '%s: %d patches + cover letter, %s; To: on all %d files\n' "$d" $((n - 1)) "$how" "$n" |
		tee -a "$out/summary.txt"
	below+=("$d")
done <"$out/.groups"

# Fixes: each commit with a Fixes: trailer is also mailed alone, as a fix that applies to
# the base by itself (fixes/, fixes.mbox), so that it can be taken ahead of its series. It is
# cherry-picked onto the base and formatted from there: its context is the base's, and its
# To/Cc follow the base's MAINTAINERS.
nfix=0
for c in $(while read -r d marker end; do
	git log --reverse --format='%H %(trailers:key=Fixes,valueonly,separator=)' "$marker..$end"
done <"$out/.groups" | awk 'NF > 1 { print $1 }'); do
	git -C "$check" checkout -q --detach base
	if ! git -C "$check" cherry-pick "$c" >"$out/.pick" 2>&1; then
		cat "$out/.pick"
		git -C "$check" cherry-pick --abort >/dev/null 2>&1
		echo "fixes: FAILS: $(git log -1 --format='%h ("%s")' "$c") does not apply to the base by itself" |
			tee -a "$out/summary.txt"
		fail=1
		continue
	fi
	nfix=$((nfix + 1))
	p=$(git -C "$check" format-patch -1 --start-number=$nfix --subject-prefix="${SUBJECT_PREFIX:-PATCH}" \
		--no-signature "${from[@]}" -o "$out/fixes" HEAD) || die "git format-patch of the fix $c failed"
	maintainers "$(git -C "$check" rev-parse HEAD)" "$p" >"$out/.one"
	headers "$p" "$out/.one"
done
rm -f "$out/.MAINTAINERS" "$out/.one" "$out/.pick"
if [ $nfix -gt 0 ]; then
	cat "$out"/fixes/0*.patch >"$out/fixes.mbox"
	git -C "$check" checkout -q --detach base
	how="applies to the base alone"
	am "$out/fixes.mbox" || { how="FAILS: does not apply to the base alone"; fail=1; }
	noto=$(grep -L '^To: ' "$out"/fixes/0*.patch | wc -l)
	[ "$noto" -eq 0 ] || { how="$how; FAILS: $noto files without To:"; fail=1; }
	printf 'fixes: %d fix(es) with a Fixes: trailer, mailed alone, %s; To: on all %d files\n' \
		$nfix "$how" $nfix | tee -a "$out/summary.txt"
fi
git worktree remove --force "$check"

if "$TOP/scripts/check.sh" $(ls "$out"/*/0*.patch | grep -v '/0000-cover-letter.patch$') >"$out/checkpatch.txt" 2>&1; then
	echo "checkpatch --strict: clean" | tee -a "$out/summary.txt"
else
	cat "$out/checkpatch.txt"
	echo "checkpatch --strict: FAILS (build/mail/checkpatch.txt)" | tee -a "$out/summary.txt"
	fail=1
fi
# Nothing of this machine: its checkout, build, cache and home paths.
leak=$(grep -lF -e "$TOP" -e "$HOME/" -e "$CACHE" -e "$BUILD" "$out"/*/0*.patch 2>/dev/null)
if [ -n "$leak" ]; then
	echo "paths of this machine in: $leak" | tee -a "$out/summary.txt"
	fail=1
else
	echo "no path of this machine in the mails" | tee -a "$out/summary.txt"
fi
[ -s "$out/cover-refs.txt" ] || rm -f "$out/cover-refs.txt"
rm -f "$out/.groups"
[ $fail -eq 0 ] || die "make mail: the mails are not ready (see above)"
log "mail: $(ls "$out"/*.mbox | wc -l) mboxes in build/mail/, nothing sent"
