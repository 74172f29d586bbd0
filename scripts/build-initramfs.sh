#!/bin/bash
# Build the static kselftests of a kernel tree and the initramfs that carries them.
# Usage: build-initramfs.sh SRC OUT   (OUT: the kernel build dir; writes OUT/initramfs.cpio.gz)
. "$(dirname "$0")/lib.sh"

src=$(realpath -m "${1:?usage: build-initramfs.sh SRC OUT}")
out=$(realpath -m "${2:?usage: build-initramfs.sh SRC OUT}")
# Selftest collections the guest runs (guest/kselftests.list names the tests within them).
targets=$(entries "$TOP/guest/kselftests.list" | sed 's/:.*//' | sort -u | tr '\n' ' ')

log "building kselftests ($targets) statically"
make -s -C "$src" O="$out" ARCH=x86_64 headers_install INSTALL_HDR_PATH="$out/usr" >/dev/null 2>&1 ||
	make -s -C "$src" O="$out" ARCH=x86_64 headers >"$out/ksft-build.log" 2>&1 ||
	die "make headers failed"
ksft() {
	make -C "$src/tools/testing/selftests" O="$out" ARCH=x86_64 TARGETS="$targets" \
		CC="ccache gcc" LDFLAGS=-static EXTRA_CFLAGS=-static -j"$JOBS" "$@"
}
ksft >"$out/ksft-build.log" 2>&1 || { tail -20 "$out/ksft-build.log" >&2; die "kselftest build failed"; }
rm -rf "$out/ksft-install"
ksft install INSTALL_PATH="$out/ksft-install" >>"$out/ksft-build.log" 2>&1 ||
	{ tail -20 "$out/ksft-build.log" >&2; die "kselftest install failed"; }

log "assembling initramfs"
st=$out/initramfs
rm -rf "$st"
mkdir -p "$st"/{bin,sbin,lib,etc,root,dev}
cp /bin/busybox "$st/bin/busybox"
ln -s busybox "$st/bin/sh"
cp /bin/bash-static "$st/bin/bash"
# Tools busybox lacks that the selftests use (lkdtm's run.sh needs GNU comm): copied with
# their shared libraries, as initramfs-tools' copy_exec does.
for x in /usr/bin/comm; do
	cp "$x" "$st/bin/"
	ldd "$x" | grep -o '/[^ ]*' | while read -r l; do
		mkdir -p "$st$(dirname "$l")" && cp -L "$l" "$st$l"
	done
done
cp "$TOP/guest/init" "$st/init"
gcc -static -O2 -Wall -o "$st/lib/fork-bench" "$TOP/guest/fork-bench.c" || die "fork-bench build failed"
cp "$TOP"/guest/*.job "$TOP"/guest/*.sh "$st/lib/" 2>/dev/null
cp "$TOP/guest/kselftests.list" "$st/lib/"
cp -a "$out/ksft-install" "$st/kselftest" || die "no kselftest install"
# The SELinux selftests' policies, built with this kernel's mdp, and the verdicts the
# unpatched kernel gives the malformed ones (make selinux-verdicts). Debian's reference
# policy with its triples and booleans, and the base's verdicts on it and its mutants:
# without it (the pinned packages gone from the archive) its tests are skipped.
if [ -d "$st/kselftest/selinux" ]; then
	pol=$st/kselftest/selinux/policies
	"$TOP/scripts/selinux-policies.sh" "$out" "$out/selinux-policies" || exit 1
	mkdir -p "$pol"
	cp "$out"/selinux-policies/*.pol "$pol/"
	[ -f "$TOP/guest/selinux-malformed.verdicts" ] &&
		cp "$TOP/guest/selinux-malformed.verdicts" "$pol/malformed.verdicts"
	if "$TOP/scripts/selinux-refpolicy.sh" "$out/selinux-refpolicy"; then
		cp "$out"/selinux-refpolicy/refpolicy.{pol,triples,bools} "$pol/"
		for v in refpolicy refpolicy-malformed; do
			[ -f "$TOP/guest/selinux-$v.verdicts" ] &&
				cp "$TOP/guest/selinux-$v.verdicts" "$pol/$v.verdicts"
		done
	else
		log "WARNING: no reference policy: selinux_refpolicy and" \
			"selinux_malformed_refpolicy.sh will skip"
	fi
fi
[ -d "$out/modroot/lib/modules" ] && cp -a "$out/modroot/lib/modules" "$st/lib/"
echo 'root:x:0:0:root:/root:/bin/sh' >"$st/etc/passwd"
echo 'root:x:0:' >"$st/etc/group"
(cd "$st" && find . | cpio -o -H newc --quiet -R 0:0) | gzip -1 >"$out/initramfs.cpio.gz" ||
	die "cpio failed"
log "initramfs: $out/initramfs.cpio.gz ($(du -h "$out/initramfs.cpio.gz" | cut -f1))"
