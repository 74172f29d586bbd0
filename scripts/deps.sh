#!/bin/bash
# Install (as root) or name (as a user) the Debian packages the harness needs.
# Usage: deps.sh [--bench] [--sparse]
. "$(dirname "$0")/lib.sh"

pkgs="build-essential qemu-system-x86 busybox-static flex bison bc libelf-dev libssl-dev
      cpio ccache python3 python3-ply python3-git e2fsprogs xz-utils kmod rsync gawk libnuma-dev libcap-dev
      liburing-dev bash-static ca-certificates bzip2 libsepol2"
for a in "$@"; do
	case $a in
	--bench) pkgs="$pkgs gnuplot-nox" ;;
	--sparse) pkgs="$pkgs sparse" ;;
	*) die "deps.sh: unknown option $a" ;;
	esac
done

missing=
for p in $pkgs; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing="$missing $p"
done
[ -z "$missing" ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
	echo "Missing packages. Run:" >&2
	echo "  sudo apt-get install -y$missing" >&2
	exit 1
fi
log "installing:$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >/dev/null || die "apt-get update failed"
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing >/dev/null ||
	die "apt-get install failed for:$missing"
log "packages installed"
