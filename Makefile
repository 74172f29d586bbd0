# The series' harness. See README.md.
#   make run [CMD='...']  boot the patched kernel (interactive shell, or run CMD and power off)
#   make test             check, apply, build, boot and run every test; "N passed, N failed"
#   make test-debug       the same on a KASAN/kmemleak/lockdep/DEBUG_VM kernel (not in CI)
#   make bench            benchmarks, the patched kernel beside the unpatched base
#   make bench-profiling  large kmalloc's allocinfo and page_owner balance (own kernel; not in CI)
#   make check            checkpatch --strict on every patch; tree and patches/ agree
#   make warnings         W=1 and sparse on the C files the series touches: none the base lacks
#   make selinux-verdicts record the base's SELinux verdicts the selftests compare with
#   make bisect           build every patch on its own (FROM=N to start at patch N; slow)
#   make reclaim-reverts  the reclaim kselftest with each conversion patch reverted alone
#   make mail             one checked mbox per series in build/mail/ (sends nothing)
#   make tree             fetch the base and apply patches/ in build/linux
#   make export           write build/linux's commits back to patches/
#   make reset            drop build/linux's un-exported commits and re-apply patches/
#   make clean            remove build/ (the download and ccache stay in ~/.cache/mm-series)

SHELL := /bin/bash
S := scripts
export _t0 := $(shell date +%s)

.PHONY: run test test-debug bench check warnings bisect mail tree export reset clean kernel \
	selinux-verdicts reclaim-reverts cross-arm64 bench-profiling

tree:
	@$(S)/deps.sh && $(S)/tree.sh apply

kernel: tree
	@$(S)/build-kernel.sh build/linux build/kernel config/qemu.config
	@$(S)/build-initramfs.sh build/linux build/kernel

run: kernel
ifeq ($(strip $(CMD)),)
	@$(S)/run-qemu.sh build/kernel run
else
	$(file >build/cmd.job,#!/bin/sh)
	$(file >>build/cmd.job,$(value CMD))
	@QEMU_TIMEOUT=$${QEMU_TIMEOUT:-600} $(S)/run-qemu.sh build/kernel cmd build/cmd.job; \
		rc=$$?; cat build/results/cmd/job.log; exit $$rc
endif

test:
	@$(S)/test.sh

test-debug:
	@KDIR=build/kernel-debug FRAGMENTS="config/qemu.config config/debug.config" \
		RESULTS=build/results-debug QEMU_APPEND=kunit.autorun=0 \
		QEMU_TIMEOUT=$${QEMU_TIMEOUT:-14400} $(S)/test.sh

bench:
	@$(S)/bench.sh

bench-profiling:
	@$(S)/bench-profiling.sh

check:
	@$(S)/check.sh && $(S)/tree.sh verify

warnings:
	@$(S)/warnings.sh

bisect:
	@$(S)/bisect-build.sh

reclaim-reverts: kernel
	@$(S)/reclaim-reverts.sh

mail:
	@$(S)/deps.sh && $(S)/mail.sh

cross-arm64: tree
	@$(S)/cross-arm64.sh

selinux-verdicts:
	@$(S)/selinux-verdicts.sh

export:
	@$(S)/tree.sh export

reset:
	@cd build/linux && git am --abort 2>/dev/null; cd build/linux && git reset -q --hard && rm -f .git/mm-series-applied
	@$(S)/tree.sh apply

clean:
	rm -rf build
