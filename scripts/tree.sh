#!/bin/bash
# The kernel work tree: build/linux, one base commit plus patches/series applied with git am.
#
#   tree.sh apply    make the tree match patches/ (create it, or re-apply when patches/ changed)
#   tree.sh export   write the tree's commits back to patches/ (format-patch, stable form)
#   tree.sh verify   fail unless the tree's commits and patches/ are the same patches
#   tree.sh groups   the tree's series, one line each: directory, marker commit, last commit
#   tree.sh base DIR make an unpatched tree in DIR (for base-kernel benchmarks)
#
# patches/series lists the series in stacking order; patches/<series>/ holds its cover
# letter, its patches and their order (series). In the tree each series starts with an
# empty marker commit whose message is the cover letter's subject and text plus an
# "mm-series: <series>" trailer: a series is its marker and the commits up to the next
# marker, so a series can gain or lose commits (git rebase -i) with nothing to count.
. "$(dirname "$0")/lib.sh"

PATCHES=$TOP/patches
SERIES=$PATCHES/series
STAMP=$TREE/.git/mm-series-applied

# Fixed identity and dates for the base commit, so its id is the same on every machine
# and the cover letter's base-commit line does not change from one export to the next.
base_env() {
	export GIT_AUTHOR_NAME="Debian linux-source" GIT_AUTHOR_EMAIL="linux-source@debian"
	export GIT_COMMITTER_NAME="$GIT_AUTHOR_NAME" GIT_COMMITTER_EMAIL="$GIT_AUTHOR_EMAIL"
	export GIT_AUTHOR_DATE="2000-01-01T00:00:00Z" GIT_COMMITTER_DATE="2000-01-01T00:00:00Z"
}

# Every file of patches/: the series list, and per series its list, cover letter and patches.
patches_sum() {
	{
		cat "$SERIES" 2>/dev/null
		for d in $(series_dirs); do
			cat "$PATCHES/$d/series" "$PATCHES/$d/0000-cover-letter.patch" 2>/dev/null
			for p in $(series_patches "$d"); do cat "$PATCHES/$d/$p" 2>/dev/null; done
		done
	} | sha256sum | cut -d' ' -f1
}

# make_base DIR: unpack the base tarball into DIR as a git tree with a single commit.
make_base() {
	local dir=$1 tarball
	tarball=$("$TOP/scripts/fetch-base.sh") || exit 1
	log "unpacking $(basename "$tarball") into $dir"
	rm -rf "$dir.tmp"
	mkdir -p "$dir.tmp"
	tar -C "$dir.tmp" --strip-components=1 -xf "$tarball" || die "untar $tarball failed"
	# Debian's packaging block in .gitignore ignores every top-level path ("/*" then
	# "!/debian/"): drop it, or new files never reach a commit.
	sed -i -e '/^\/\*$/d' -e '/^!\/debian\/$/d' "$dir.tmp/.gitignore"
	log "committing the base tree"
	(
		cd "$dir.tmp" &&
			git init -q -b main &&
			git config core.autocrlf false &&
			git config gc.auto 0 &&
			base_env &&
			git add -A &&
			git commit -q -m "Linux $(. "$TOP/base.conf"; echo "$BASE_VERSION") (Debian linux-source)" &&
			git tag base
	) || die "creating the base commit failed"
	mv "$dir.tmp" "$dir"
}

# cover_description FILE: a cover letter's subject and body (the text before the shortlog).
cover_description() {
	awk '
		/^Subject: / { sub(/^Subject: (\[[^]]*\] )?/, ""); subj = $0; insubj = 1; next }
		insubj && /^ / { subj = subj $0; next }
		insubj { insubj = 0; print subj; print "" }
		/^$/ && !body { body = 1; next }
		body && /^[^ ].* \([0-9]+\):$/ { exit }
		body { print }
	' "$1" | git stripspace
}

apply() {
	local d p want head
	[ -d "$TREE/.git" ] || make_base "$TREE"
	cd "$TREE" || exit 1
	# Diffs that move code read better, and checkpatch sees moved lines as context.
	git config diff.algorithm histogram
	want=$(patches_sum)
	head=$(git rev-parse HEAD)
	if [ -f "$STAMP" ]; then
		read -r s_sum s_head <"$STAMP"
		if [ "$s_sum" = "$want" ] && [ "$s_head" = "$head" ]; then
			log "tree is up to date with patches/ ($(series_dirs | wc -w) series)"
			return 0
		fi
		if [ "$s_head" != "$head" ]; then
			die "build/linux has commits that are not in patches/: run 'make export' first (or 'make reset' to drop them)"
		fi
	fi
	[ -z "$(git status --porcelain --untracked-files=no)" ] ||
		die "build/linux has uncommitted changes: commit and 'make export' them, or 'make reset'"
	git am --abort >/dev/null 2>&1
	# From here the tree holds only what patches/ has: an interrupted apply may be redone.
	rm -f "$STAMP"
	git checkout -q -B main base || die "cannot check out base"
	for d in $(series_dirs); do
		[ -f "$PATCHES/$d/0000-cover-letter.patch" ] || die "patches/$d has no 0000-cover-letter.patch"
		{ cover_description "$PATCHES/$d/0000-cover-letter.patch"; printf '\n%s: %s\n' "$MARKER" "$d"; } |
			git commit -q --allow-empty --cleanup=whitespace -F - ||
			die "cannot make the marker commit of $d"
		for p in $(series_patches "$d"); do
			[ -f "$PATCHES/$d/$p" ] || die "patches/$d/series names $p, which does not exist"
			if ! git am -q --keep-cr "$PATCHES/$d/$p" >/dev/null 2>"$BUILD/am.err"; then
				cat "$BUILD/am.err" >&2
				git am --abort >/dev/null 2>&1
				die "patch does not apply: patches/$d/$p"
			fi
		done
	done
	echo "$want $(git rev-parse HEAD)" >"$STAMP"
	log "applied $(series_dirs | wc -w) series ($(patch_files | wc -l) patches) on base"
}

# format_series DIR MARKER END OUTDIR [format-patch options]: format-patch the series whose
# marker commit is MARKER and last commit END, with the marker's message as cover letter.
format_series() {
	local dir=$1 marker=$2 end=$3 outdir=$4
	shift 4
	git branch -f mm-series-format "$end" >/dev/null || die "cannot make a branch at $end"
	git -c branch.mm-series-format.description="$(marker_text "$marker")" format-patch -q \
		--cover-letter --cover-from-description=subject -o "$outdir" "$@" \
		"$marker..mm-series-format"
	local rc=$?
	git branch -D mm-series-format >/dev/null
	[ $rc -eq 0 ] || die "git format-patch of $dir failed"
}

export_patches() {
	local tmp d marker end n=0
	[ -d "$TREE/.git" ] || die "no tree at $TREE: run 'make tree' first"
	cd "$TREE" || exit 1
	[ -z "$(git status --porcelain --untracked-files=no)" ] ||
		die "build/linux has uncommitted changes: commit them first"
	tmp=$(mktemp -d)
	groups >"$tmp/groups" || exit 1
	while read -r d marker end; do
		format_series "$d" "$marker" "$end" "$tmp/$d" --zero-commit --no-signature --base=base
		# Stable form: no export date; no prerequisite-patch-id lines, which would change
		# with every change to the series below (make mail writes them).
		sed -i -e '/^Date: /d' -e '/^prerequisite-patch-id: /d' "$tmp/$d/0000-cover-letter.patch"
		{
			echo "# Applied in this order by scripts/tree.sh (git am), after the marker commit"
			echo "# made from 0000-cover-letter.patch."
			ls "$tmp/$d" | grep '\.patch$' | grep -v '^0000-cover-letter.patch$' | sort
		} >"$tmp/$d/series"
		n=$((n + $(ls "$tmp/$d" | grep -c '^0[0-9]*-.*\.patch$') - 1))
	done <"$tmp/groups"
	# patches/ holds only what the tree has: series directories and the series list.
	find "$PATCHES" -mindepth 1 -maxdepth 1 \( -type d -o -name '*.patch' \) -exec rm -rf {} +
	mkdir -p "$PATCHES"
	{
		echo "# The series, stacked in this order on the base; each is a directory here."
		awk '{print $1}' "$tmp/groups"
	} >"$SERIES"
	while read -r d marker end; do mv "$tmp/$d" "$PATCHES/$d"; done <"$tmp/groups"
	rm -rf "$tmp"
	echo "$(patches_sum) $(git rev-parse HEAD)" >"$STAMP"
	log "exported $(series_dirs | wc -w) series, $n patches, to patches/"
}

verify() {
	local tmp rc=0 d marker end
	[ -d "$TREE/.git" ] || die "no tree at $TREE: run 'make tree' first"
	tmp=$(mktemp -d)
	(cd "$TREE" && groups) >"$tmp/groups" || exit 1
	awk '{print $1}' "$tmp/groups" >"$tmp/tree-series"
	series_dirs >"$tmp/patches-series"
	if ! cmp -s "$tmp/patches-series" "$tmp/tree-series"; then
		echo "build/linux and patches/ have different series: $(echo $(cat "$tmp/tree-series")) against $(echo $(cat "$tmp/patches-series"))" >&2
		rc=1
	fi
	while read -r d marker end; do
		[ -d "$PATCHES/$d" ] || continue
		for p in $(series_patches "$d"); do git patch-id --stable <"$PATCHES/$d/$p"; done |
			awk '{print $1}' >"$tmp/patches"
		git -C "$TREE" log --reverse -p "$marker..$end" | git patch-id --stable |
			awk '{print $1}' >"$tmp/tree"
		if ! cmp -s "$tmp/patches" "$tmp/tree"; then
			echo "build/linux and patches/$d disagree:" >&2
			diff "$tmp/patches" "$tmp/tree" | sed 's/^/  /' >&2
			rc=1
		fi
		if [ "$(cd "$TREE" && marker_text "$marker")" != "$(cover_description "$PATCHES/$d/0000-cover-letter.patch")" ]; then
			echo "the cover letter of patches/$d differs from its marker commit in build/linux" >&2
			rc=1
		fi
	done <"$tmp/groups"
	[ $rc -eq 0 ] && log "tree and patches/ agree ($(series_dirs | wc -w) series, $(patch_files | wc -l) patches)"
	[ $rc -eq 0 ] || echo "('make export' or 'make reset')" >&2
	rm -rf "$tmp"
	return $rc
}

case "${1:-}" in
apply) apply ;;
export) export_patches ;;
verify) verify ;;
groups) cd "$TREE" && groups ;;
base) [ -d "${2:?usage: tree.sh base DIR}/.git" ] || make_base "$2" ;;
*) die "usage: tree.sh apply|export|verify|groups|base DIR" ;;
esac
