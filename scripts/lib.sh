# Shared helpers for the harness scripts (sourced, not run).
# shellcheck shell=bash

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
RESULTS=$(realpath -m "${RESULTS:-$BUILD/results}")
CACHE=${CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/mm-series}
TREE=${TREE:-$BUILD/linux}
JOBS=${JOBS:-$(nproc)}
export CCACHE_DIR=${CCACHE_DIR:-$CACHE/ccache}
# Hit the cache from any checkout (CI clones elsewhere): no cwd in the hash, relative paths.
export CCACHE_NOHASHDIR=1 CCACHE_BASEDIR=${CCACHE_BASEDIR:-$TOP}

_t0=${_t0:-$(date +%s)}
export _t0

# log MSG: a progress line with the elapsed time since the top-level command started.
log() {
	local now
	now=$(date +%s)
	printf '[%4ds] %s\n' "$((now - _t0))" "$*" >&2
}

# entries FILE: the lines of a list file (patches/series, guest/kselftests.list) without
# comments and blank lines.
entries() {
	sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$1"
}

die() {
	printf 'ERROR: %s\n' "$*" >&2
	exit 1
}

# stage NAME CMD...: run one long step with a start and an end line.
stage() {
	local name=$1 s rc
	shift
	s=$(date +%s)
	log "$name ..."
	"$@"
	rc=$?
	log "$name: done in $(($(date +%s) - s))s (rc=$rc)"
	return $rc
}

# build_base: build the unpatched base (tag "base" of the tree, in the worktree
# $BUILD/linux-base) with the test config into $BUILD/kernel-base, for what compares the
# series with it (make bench, make warnings). KCONFIG_LAX: the base lacks the series' options.
build_base() {
	local src=$BUILD/linux-base
	if [ ! -d "$src/.git" ] && [ ! -f "$src/.git" ]; then
		git -C "$TREE" worktree add -q --detach "$src" base || die "cannot make $src"
	fi
	KCONFIG_LAX=1 stage "base kernel" "$TOP/scripts/build-kernel.sh" "$src" "$BUILD/kernel-base" \
		"$TOP/config/qemu.config"
}

# The series in patches/: series_dirs lists them in stacking order (patches/series),
# series_patches DIR the patches of one (patches/DIR/series), patch_files every patch as
# DIR/FILE in git am order.
MARKER=mm-series
series_dirs() {
	[ -f "$TOP/patches/series" ] && entries "$TOP/patches/series"
}
series_patches() {
	entries "$TOP/patches/$1/series"
}
patch_files() {
	local d p
	for d in $(series_dirs); do
		for p in $(series_patches "$d"); do echo "$d/$p"; done
	done
}

# groups (in the kernel tree): its series, "DIR MARKER END" per line. A series starts at its
# marker, an empty commit with an "mm-series: DIR" trailer, and ends before the next one.
groups() {
	local c d cur="" marker="" prev=""
	for c in $(git rev-list --reverse base..HEAD); do
		d=$(git log -1 --format="%(trailers:key=$MARKER,valueonly,separator=)" "$c")
		if [ -n "$d" ]; then
			git diff --quiet "$c^" "$c" || die "marker commit $c ($d) changes files"
			[ -n "$cur" ] && echo "$cur $marker $prev"
			cur=$d marker=$c
		elif [ -z "$cur" ]; then
			die "commit $c comes before any series marker (an empty commit with a '$MARKER: <series>' trailer)"
		fi
		prev=$c
	done
	[ -z "$cur" ] || echo "$cur $marker $prev"
}

# marker_text COMMIT (in the kernel tree): a marker's message without its trailer, the
# cover letter's subject and text.
marker_text() {
	git log -1 --format=%B "$1" | sed "/^$MARKER: /d" | git stripspace
}
