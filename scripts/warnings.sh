#!/bin/bash
# make warnings: build every C file the series touches that the test config builds with W=1
# and sparse, in the series and in the unpatched base, and fail on a warning the base does
# not have. (W=1 changes the compiler flags, so the next plain build recompiles these files;
# ccache makes that quick.)
#
# Debian 12's sparse (0.6.4) lacks __typeof_unqual__, so 7.3's checker-valid.sh refuses it;
# it is given -D__typeof_unqual__=__typeof__, which keeps qualifiers that the real operator
# strips. Both trees get the same spurious warnings from that, and only the difference
# counts. That sparse also says "bad constant expression" at every MODULE_*() and
# module_param() line (the .modinfo strings), in the base as well; those are dropped.
. "$(dirname "$0")/lib.sh"

stage "packages" "$TOP/scripts/deps.sh" --sparse || exit 1
stage "tree" "$TOP/scripts/tree.sh" apply || exit 1
stage "kernel" "$TOP/scripts/build-kernel.sh" "$TREE" "$BUILD/kernel" "$TOP/config/qemu.config" || exit 1
build_base || exit 1

out=$RESULTS/warnings
mkdir -p "$out"
files=$(git -C "$TREE" diff --name-only base..HEAD -- '*.c' ':!tools')

# check SRC KDIR: gcc's W=1 and sparse's warnings on the touched files KDIR builds, as
# "file: message".
check() {
	local src=$1 kdir=$2 objs="" f
	for f in $files; do
		[ -f "$kdir/${f%.c}.o" ] && objs="$objs ${f%.c}.o"
	done
	# shellcheck disable=SC2086
	make -C "$src" O="$kdir" ARCH=x86_64 CC="ccache gcc" -j"$JOBS" W=1 C=2 CHECK=sparse \
		CF="-D__typeof_unqual__=__typeof__" $objs >"$out/$(basename "$kdir").log" 2>&1 ||
		die "W=1 build in $kdir failed (see $out/$(basename "$kdir").log)"
	grep -E '^[^ ]+:[0-9]+:[0-9]+: (warning|error):' "$out/$(basename "$kdir").log" |
		while IFS=: read -r file line _ msg; do
			sed -n "${line}p" "$file" | grep -qE '^(MODULE_[A-Z_]+|module_param)\(' &&
				[ "$msg" = " error: bad constant expression" ] && continue
			# sparse names files by absolute path, gcc relative to KDIR
			file=${file#"$src"/}
			echo "${file#../"$(basename "$src")"/}:$msg"
		done | LC_ALL=C sort
}

unbuilt=$(for f in $files; do [ -f "$BUILD/kernel/${f%.c}.o" ] || echo "$f"; done)
log "warnings: $(echo "$files" | wc -w) C files touched by the series; not in the test config:" \
	"$(echo "${unbuilt:-none}" | tr '\n' ' ')"
check "$TREE" "$BUILD/kernel" >"$out/series.txt"
check "$BUILD/linux-base" "$BUILD/kernel-base" >"$out/base.txt"
LC_ALL=C comm -13 "$out/base.txt" "$out/series.txt" >"$out/new.txt"
log "warnings (W=1, sparse): $(wc -l <"$out/series.txt") in the series, $(wc -l <"$out/base.txt") in the base, $(wc -l <"$out/new.txt") new"
if [ -s "$out/new.txt" ]; then
	sed 's/^/  /' "$out/new.txt"
	exit 1
fi
