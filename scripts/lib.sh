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

# base_tests: the patch files named in patches/base-tests, by the name format-patch gives
# them without their number, which does not change when patches are added before them.
base_tests() {
	local n f
	[ -f "$TOP/patches/base-tests" ] || return 0
	entries "$TOP/patches/base-tests" | while read -r n; do
		f=$(ls "$TOP"/patches/*/[0-9][0-9][0-9][0-9]-"$n".patch 2>/dev/null | head -n1)
		[ -n "$f" ] || die "patches/base-tests names $n, which is not in patches/"
		echo "$f"
	done
}

# build_base: build the unpatched base (tag "base" of the tree, in the worktree
# $BUILD/linux-base) with the test config into $BUILD/kernel-base, for what compares the
# series with it (make bench, make warnings). KCONFIG_LAX: the base lacks the series' options.
# The base gets the test-only patches of patches/base-tests (LKDTM's SELinux writes): tests
# of what the series changes, which must run on the base to show what it does.
build_base() {
	local src=$BUILD/linux-base want p
	if [ ! -d "$src/.git" ] && [ ! -f "$src/.git" ]; then
		git -C "$TREE" worktree add -q --detach "$src" base || die "cannot make $src"
	fi
	want=$(base_tests | xargs -r cat | sha256sum | cut -d' ' -f1)
	if [ "$(cat "$BUILD/linux-base.tests" 2>/dev/null)" != "$want" ]; then
		git -C "$src" am --abort >/dev/null 2>&1
		git -C "$src" checkout -q --detach base || die "cannot check out base in $src"
		for p in $(base_tests); do
			git -C "$src" am -q --keep-cr "$p" >/dev/null ||
				die "test patch $(basename "$p") does not apply to the base"
		done
		echo "$want" >"$BUILD/linux-base.tests"
		log "base: tag base + $(base_tests | wc -l) test patches (patches/base-tests)"
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

# mirror_uri: the first non-security Debian mirror the machine uses (deb822 or one-line
# format).
mirror_uri() {
	{
		cat /etc/apt/sources.list.d/*.sources 2>/dev/null |
			awk '/^URIs:/ { for (i = 2; i <= NF; i++) print $i }'
		cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null |
			awk '$1 == "deb" { for (i = 2; i <= NF; i++) if ($i ~ /:\/\//) { print $i; break } }'
	} | grep -v -- '-security' | head -n1
}

# apt_opts DIR: apt options for a private state directory DIR with its own sources.list, so
# the machine's apt configuration is never used or changed.
apt_opts() {
	echo "-o Dir::Etc::SourceList=$1/sources.list -o Dir::Etc::SourceParts=/dev/null" \
	     "-o Dir::State::Lists=$1/lists -o Dir::Cache=$1" \
	     "-o Dir::State::status=/dev/null -o Debug::NoLocking=1 -o APT::Sandbox::User=root"
}

# fetch_deb SUITE PACKAGE VERSION SHA256: download PACKAGE=VERSION (for the machine's
# architecture, or an arch-all package) from the machine's mirror into $CACHE/deb, through
# a private apt state for SUITE, and check its sha256. Prints the .deb's path.
fetch_deb() {
	local suite=$1 pkg=$2 ver=$3 sum=$4 dir=$CACHE/apt-$1 deb uri
	# deb_file: the downloaded file, which apt-get download names PACKAGE_VERSION_ARCH.deb
	# (an epoch's colon as %3a), ARCH the machine's or "all".
	deb_file() {
		local a
		for a in "$(dpkg --print-architecture)" all; do
			deb=$CACHE/deb/${pkg}_${ver//:/%3a}_$a.deb
			[ -s "$deb" ] && return 0
		done
		return 1
	}
	if ! deb_file; then
		mkdir -p "$dir/lists/partial" "$dir/archives/partial" "$CACHE/deb"
		uri=$(mirror_uri)
		[ -n "$uri" ] || die "no Debian mirror URI found in /etc/apt/sources.list{,.d}"
		echo "deb $uri $suite main" >"$dir/sources.list"
		log "apt update of $suite (private state in $dir)"
		# shellcheck disable=SC2046
		apt-get $(apt_opts "$dir") -qq update >&2 || die "apt-get update of $suite failed"
		log "downloading $pkg=$ver"
		# shellcheck disable=SC2046
		(cd "$CACHE/deb" && apt-get $(apt_opts "$dir") -qq download "$pkg=$ver" >&2) ||
			die "apt-get download $pkg=$ver failed"
		deb_file || die "apt-get download $pkg=$ver left no .deb in $CACHE/deb"
	fi
	echo "$sum  $deb" | sha256sum -c --quiet - >&2 || die "sha256 of $deb does not match"
	echo "$deb"
}
