#!/bin/bash
# Fetch Debian's linux-source package into the cache and unpack the kernel source.
# The machine's apt sources are never changed: a private apt state directory with its own
# one-line sources list is used, with the mirror URI read from the machine's configuration.
# Prints the path of the unpacked source tarball on stdout.
. "$(dirname "$0")/lib.sh"
. "$TOP/base.conf"

apt_dir=$CACHE/apt
mkdir -p "$apt_dir/lists/partial" "$apt_dir/archives/partial" "$CACHE/deb"

find_deb() {
	ls "$CACHE"/deb/"${BASE_PACKAGE}"_*.deb 2>/dev/null | sort -V | tail -n1
}

deb=$CACHE/deb/${BASE_PACKAGE}_${BASE_VERSION//:/%3a}_all.deb
if [ ! -s "$deb" ]; then
	uri=$(mirror_uri)
	[ -n "$uri" ] || die "no Debian mirror URI found in /etc/apt/sources.list{,.d}"
	echo "deb $uri $BASE_SUITE main" >"$apt_dir/sources.list"
	log "apt update of $BASE_SUITE (private state in $apt_dir)"
	# shellcheck disable=SC2046
	apt-get $(apt_opts "$apt_dir") -qq update >&2 || die "apt-get update of $BASE_SUITE failed"
	want="$BASE_PACKAGE=$BASE_VERSION"
	# shellcheck disable=SC2046
	if ! apt-cache $(apt_opts "$apt_dir") show "$want" >/dev/null 2>&1; then
		newest=$(apt-cache $(apt_opts "$apt_dir") madison "$BASE_PACKAGE" 2>/dev/null |
			awk '{print $3}' | sort -V | tail -n1)
		[ -n "$newest" ] || die "$BASE_PACKAGE is not in $BASE_SUITE at $uri"
		{
			echo "################################################################"
			echo "WARNING: $BASE_PACKAGE $BASE_VERSION is gone from the archive;"
			echo "WARNING: using the newest one, $newest. Checksum NOT verified."
			echo "WARNING: update base.conf (version and sha256) and re-test."
			echo "################################################################"
		} >&2
		want="$BASE_PACKAGE=$newest"
		BASE_DEB_SHA256=
		deb=$CACHE/deb/${BASE_PACKAGE}_${newest//:/%3a}_all.deb
	fi
	log "downloading $want"
	# shellcheck disable=SC2046
	(cd "$CACHE/deb" && apt-get $(apt_opts "$apt_dir") -qq download "$want" >&2) ||
		die "apt-get download $want failed"
	[ -s "$deb" ] || deb=$(find_deb)
fi
[ -s "$deb" ] || die "no $BASE_PACKAGE .deb in $CACHE/deb"

if [ -n "$BASE_DEB_SHA256" ]; then
	echo "$BASE_DEB_SHA256  $deb" | sha256sum -c --quiet - >&2 ||
		die "sha256 of $deb does not match base.conf"
fi

src=$CACHE/src/$(basename "$deb" .deb)
if [ ! -d "$src" ]; then
	log "unpacking $(basename "$deb")"
	rm -rf "$src.tmp"
	mkdir -p "$src.tmp"
	dpkg-deb -x "$deb" "$src.tmp" || die "dpkg-deb -x $deb failed"
	mv "$src.tmp" "$src"
fi
tarball=$(ls "$src"/usr/src/linux-source-*.tar.xz 2>/dev/null | head -n1)
[ -f "$tarball" ] || die "no source tarball in $deb"
echo "$tarball"
