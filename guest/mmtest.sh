# Helpers for guest jobs (sourced from /lib/mmtest.sh).

# disk_by_serial SERIAL: the /dev node of the virtio disk the host tagged with SERIAL.
disk_by_serial() {
	for d in /sys/block/vd*; do
		[ "$(cat "$d/serial" 2>/dev/null)" = "$1" ] && echo "/dev/${d##*/}" && return 0
	done
	return 1
}

# pmalloc_idle_kb: what pmalloc holds for pools, in kB, less its unused blocks (which the
# next pools may take); nothing without pmalloc. Read before a boot's first SELinux policy,
# it is what the SELinux benchmarks count the policy's blocks from ($SELINUX_PMALLOC_IDLE_KB).
pmalloc_idle_kb() {
	cat /proc/meminfo /sys/kernel/debug/pmalloc_pools 2>/dev/null | awk '
		$1 == "Pmalloc:" { kb = $2 }
		$1 == "#" && $2 == "blocks" { blocks = $3 }
		$1 == "#" && $2 == "blocks_unused" { unused = $3 }
		END { if (kb != "") print blocks ? kb - unused * kb / blocks : kb }'
}
