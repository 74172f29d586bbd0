#!/bin/bash
# The kernel work tree: build/linux, one base commit plus patches/series applied with git am.
#
#   tree.sh apply    make the tree match patches/ (create it, or re-apply when patches/ changed)
#   tree.sh export   write the tree's commits back to patches/ (format-patch, stable form)
#   tree.sh verify   fail unless the tree's commits and patches/ are the same patches
#   tree.sh base DIR make an unpatched tree in DIR (for base-kernel benchmarks)
. "$(dirname "$0")/lib.sh"

PATCHES=$TOP/patches
SERIES=$PATCHES/series
COVER=$PATCHES/0000-cover-letter.patch
STAMP=$TREE/.git/mm-series-applied

# Fixed identity and dates for the base commit, so its id is the same on every machine
# and the cover letter's base-commit line does not change from one export to the next.
base_env() {
	export GIT_AUTHOR_NAME="Debian linux-source" GIT_AUTHOR_EMAIL="linux-source@debian"
	export GIT_COMMITTER_NAME="$GIT_AUTHOR_NAME" GIT_COMMITTER_EMAIL="$GIT_AUTHOR_EMAIL"
	export GIT_AUTHOR_DATE="2000-01-01T00:00:00Z" GIT_COMMITTER_DATE="2000-01-01T00:00:00Z"
}

series_files() {
	[ -f "$SERIES" ] || return 0
	entries "$SERIES"
}

patches_sum() {
	{
		cat "$SERIES" 2>/dev/null
		series_files | while read -r p; do cat "$PATCHES/$p" 2>/dev/null; done
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

# The cover letter's subject and body, as a branch description for format-patch.
cover_description() {
	[ -f "$COVER" ] || return 0
	awk '
		/^Subject: / { sub(/^Subject: (\[[^]]*\] )?/, ""); subj = $0; insubj = 1; next }
		insubj && /^ / { subj = subj $0; next }
		insubj { insubj = 0; print subj; print "" }
		/^$/ && !body { body = 1; next }
		body && /^[^ ].* \([0-9]+\):$/ { exit }
		body { print }
	' "$COVER" | sed -e :a -e '/^\n*$/{$d;N;ba' -e '}'
}

apply() {
	local p want head
	[ -d "$TREE/.git" ] || make_base "$TREE"
	cd "$TREE" || exit 1
	# Diffs that move code read better, and checkpatch sees moved lines as context.
	git config diff.algorithm histogram
	want=$(patches_sum)
	head=$(git rev-parse HEAD)
	if [ -f "$STAMP" ]; then
		read -r s_sum s_head <"$STAMP"
		if [ "$s_sum" = "$want" ] && [ "$s_head" = "$head" ]; then
			log "tree is up to date with patches/ ($(series_files | wc -l) patches)"
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
	for p in $(series_files); do
		[ -f "$PATCHES/$p" ] || die "patches/series names $p, which does not exist"
		if ! git am -q --keep-cr "$PATCHES/$p" >/dev/null 2>"$BUILD/am.err"; then
			cat "$BUILD/am.err" >&2
			git am --abort >/dev/null 2>&1
			die "patch does not apply: patches/$p"
		fi
	done
	git config branch.main.description "$(cover_description)"
	echo "$want $(git rev-parse HEAD)" >"$STAMP"
	log "applied $(series_files | wc -l) patches on base"
}

export_patches() {
	local n tmp
	[ -d "$TREE/.git" ] || die "no tree at $TREE: run 'make tree' first"
	cd "$TREE" || exit 1
	[ -z "$(git status --porcelain --untracked-files=no)" ] ||
		die "build/linux has uncommitted changes: commit them first"
	n=$(git rev-list --count base..HEAD)
	tmp=$(mktemp -d)
	if [ "$n" -gt 0 ]; then
		git format-patch -q --zero-commit --no-signature --base=base \
			--cover-letter --cover-from-description=subject -o "$tmp" base..HEAD ||
			die "git format-patch failed"
		# The cover letter's Date: is the time of the export: drop it, it is noise.
		sed -i '/^Date: /d' "$tmp"/0000-cover-letter.patch
	fi
	rm -f "$PATCHES"/*.patch
	mkdir -p "$PATCHES"
	# shellcheck disable=SC2012
	ls "$tmp" | grep -v '^0000-cover-letter.patch$' | sort >"$PATCHES/series.new"
	[ "$n" -gt 0 ] && mv "$tmp"/*.patch "$PATCHES"/
	{
		echo "# Applied in this order onto the base by scripts/tree.sh (git am)."
		cat "$PATCHES/series.new"
	} >"$SERIES"
	rm -rf "$tmp" "$PATCHES/series.new"
	echo "$(patches_sum) $(git rev-parse HEAD)" >"$STAMP"
	log "exported $n patches to patches/"
}

verify() {
	local tmp rc=0
	[ -d "$TREE/.git" ] || die "no tree at $TREE: run 'make tree' first"
	tmp=$(mktemp -d)
	series_files | while read -r p; do git patch-id --stable <"$PATCHES/$p"; done |
		awk '{print $1}' >"$tmp/patches"
	git -C "$TREE" log --reverse -p --no-merges base..HEAD | git patch-id --stable |
		awk '{print $1}' >"$tmp/tree"
	# patch-id lists commits newest first within log -p order; compare in series order
	if ! cmp -s "$tmp/patches" "$tmp/tree"; then
		echo "build/linux and patches/ disagree:" >&2
		diff "$tmp/patches" "$tmp/tree" | sed 's/^/  /' >&2
		echo "(< only in patches/, > only in the tree: 'make export' or 'make reset')" >&2
		rc=1
	else
		log "tree and patches/ agree ($(wc -l <"$tmp/tree") patches)"
	fi
	rm -rf "$tmp"
	return $rc
}

case "${1:-}" in
apply) apply ;;
export) export_patches ;;
verify) verify ;;
base) [ -d "${2:?usage: tree.sh base DIR}/.git" ] || make_base "$2" ;;
*) die "usage: tree.sh apply|export|verify|base DIR" ;;
esac
