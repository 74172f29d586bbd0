#!/bin/bash
# make check: every patch in patches/ passes checkpatch.pl --strict with no error, warning
# or check, and each cover letter refers to its patches rightly (check-cover.sh). check.sh
# FILE... runs checkpatch on those files instead (make mail's output).
#
# Three warnings are judged rather than counted. CAMELCASE is accepted for a page flag or
# page type accessor (Page*, __SetPage*, __ClearPage* of a flag or type that
# include/linux/page-flags.h declares): the macros there make those names, which checkpatch
# does not see. FILE_PATH_CHANGES ("does MAINTAINERS need
# updating?") fires for every added file. It is accepted only when get_maintainer.pl finds
# a maintainer (not just LKML) for each file the patch adds, moves or deletes.
# VSPRINTF_SPECIFIER_PX (%px) is accepted only on an LKDTM "attempting bad ... at %px" line:
# those tests print the raw address they attack, as LKDTM's own tests do, so that the
# selftest runner can check that the fault is at that address.
# UNKNOWN_COMMIT_ID is ignored: the base is a source tarball, with no upstream history in
# which checkpatch could look a commit up, so it would fire for every Fixes: tag. The tag's
# form is still checked (GIT_COMMIT_ID); its id and subject are checked against the upstream
# posting when the tag is written.
. "$(dirname "$0")/lib.sh"

# checkpatch's spdxcheck.py needs Debian's python3 (python3-ply, python3-git), which a
# python3 earlier on PATH (pyenv, venvs) does not have.
export PATH=/usr/bin:$PATH

[ -x "$TREE/scripts/checkpatch.pl" ] || "$TOP/scripts/tree.sh" apply >&2 || exit 1
cd "$TREE" || exit 1

# unmaintained PATCH: the files PATCH adds or removes that have no maintainer but LKML.
unmaintained() {
	grep -E '^(\+\+\+ b|--- a)/' "$1" | sed 's|^... [ab]/||' | sort -u | while read -r f; do
		./scripts/get_maintainer.pl --no-git --no-rolestats --no-tree -f "$f" 2>/dev/null |
			grep -qv 'linux-kernel@vger.kernel.org' || echo "$f"
	done
}

bad=0 n=0 covers=0 all=$#
if [ $# -eq 0 ]; then
	set -- $(patch_files | sed "s|^|$TOP/patches/|")
fi
for p in "$@"; do
	n=$((n + 1))
	out=$(./scripts/checkpatch.pl --strict --no-color --terse --show-types \
		--ignore UNKNOWN_COMMIT_ID "$p" 2>&1 |
		grep -E ': (ERROR|WARNING|CHECK):')
	if echo "$out" | grep -q 'FILE_PATH_CHANGES' && [ -z "$(unmaintained "$p")" ]; then
		out=$(echo "$out" | grep -v 'FILE_PATH_CHANGES')
	fi
	out=$(echo "$out" | while IFS= read -r w; do
		# CAMELCASE of a page flag or type accessor: include/linux/page-flags.h makes
		# them with macros (PAGE_TYPE_OPS(LargeKmalloc, ...) makes __SetPageLargeKmalloc),
		# which checkpatch's list of the tree's CamelCase names does not expand.
		flag=$(echo "$w" | sed -n 's/.*CHECK:CAMELCASE: Avoid CamelCase: <\(__\)\{0,1\}\(Set\|Clear\)\{0,1\}Page\([A-Za-z]*\)>$/\3/p')
		[ -n "$flag" ] && grep -qE "^(PAGE_TYPE_OPS|PAGEFLAG|__PAGEFLAG)\($flag," \
			include/linux/page-flags.h && continue
		line=$(echo "$w" | sed -n 's/^[^:]*:\([0-9]*\): WARNING:VSPRINTF_SPECIFIER_PX:.*/\1/p')
		# checkpatch reports a statement by one of its first lines
		[ -n "$line" ] && sed -n "$((line - 1)),$((line + 2))p" "$p" |
			grep -q '^+.*pr_info("attempting bad .* at %px\\n"' && continue
		echo "$w"
	done)
	if [ -n "$out" ]; then
		echo "checkpatch: ${p#"$TOP"/}:"
		echo "$out" | sed "s|^$TOP/||; s/^/  /"
		bad=$((bad + 1))
	fi
done
log "checkpatch --strict: $n patches, $bad with problems"

# patches/ (not the files given, make mail's, which checks them itself): the cover letters'
# references to their patches (check-cover.sh), in the tree's markers, which tree.sh verify
# (make check) and tree.sh apply before this (make test) hold equal to patches/.
if [ "$all" -eq 0 ]; then
	while read -r d marker end; do
		"$TOP/scripts/check-cover.sh" "$marker" "$end" || covers=$((covers + 1))
	done < <(groups)
	log "cover letters: $covers with wrong patch references"
fi
[ "$bad" -eq 0 ] && [ "$covers" -eq 0 ]
