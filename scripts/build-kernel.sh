#!/bin/bash
# Configure and build a kernel tree out of tree, with ccache.
# Usage: build-kernel.sh SRC OUT [fragment...]
#   SRC: kernel source tree; OUT: build directory; fragments: config/*.config to merge
#   onto tinyconfig (default: config/qemu.config).
. "$(dirname "$0")/lib.sh"

src=$(realpath -m "${1:?usage: build-kernel.sh SRC OUT [fragment...]}")
out=$(realpath -m "${2:?usage: build-kernel.sh SRC OUT [fragment...]}")
shift 2
[ $# -gt 0 ] || set -- "$TOP/config/qemu.config"
mkdir -p "$out"
kmake() { make -C "$src" O="$out" ARCH=x86_64 CC="ccache gcc" -j"$JOBS" "$@"; }

# Reconfigure only when a fragment or the tree's Kconfig files changed (a patch that adds an
# option the fragment asks for must get it), so an unchanged tree rebuilds in seconds.
want=$({
	cat "$@"
	find "$src" -name 'Kconfig*' -not -path '*/.git/*' -type f | LC_ALL=C sort | xargs cat
} | sha256sum | cut -d' ' -f1)
if [ "$(cat "$out/.fragments" 2>/dev/null)" != "$want" ] || [ ! -f "$out/.config" ]; then
	log "configuring $out: tinyconfig + $(basename -a "$@" | tr '\n' ' ')"
	kmake -s tinyconfig >/dev/null || die "tinyconfig failed"
	"$src/scripts/kconfig/merge_config.sh" -m -O "$out" "$out/.config" "$@" >"$out/merge.log" 2>&1 ||
		die "merge_config.sh failed (see $out/merge.log)"
	kmake -s olddefconfig >/dev/null || die "olddefconfig failed"
	# Every option a fragment asks for must survive olddefconfig, or the tests are lying.
	bad=$(cat "$@" | sed -n 's/^\(CONFIG_[A-Z0-9_]*\)=\(.*\)/\1=\2/p' | while read -r l; do
		grep -qxF "$l" "$out/.config" || echo "${l%%=*}"
	done)
	# KCONFIG_LAX=1 (the unpatched base, which lacks the series' options) only warns.
	if [ -n "$bad" ]; then
		[ -n "${KCONFIG_LAX:-}" ] || die "options not set as asked (missing dependency?): $(echo $bad)"
		log "not in this tree (ignored): $(echo $bad)"
	fi
	echo "$want" >"$out/.fragments"
fi

log "building $out (ccache, -j$JOBS)"
if ! kmake -s bzImage modules >"$out/build.log" 2>&1; then
	grep -E 'error|Error' "$out/build.log" | head -20 >&2
	die "kernel build failed in $out (full log: $out/build.log)"
fi
grep -E ': warning:' "$out/build.log" | head -20 >&2
rm -rf "$out/modroot"
kmake -s INSTALL_MOD_PATH="$out/modroot" INSTALL_MOD_STRIP=1 modules_install >/dev/null ||
	die "modules_install failed"
log "kernel: $out/arch/x86/boot/bzImage ($(make -s -C "$src" O="$out" kernelrelease 2>/dev/null))"
