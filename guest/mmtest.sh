# Helpers for guest jobs (sourced from /lib/mmtest.sh).

# disk_by_serial SERIAL: the /dev node of the virtio disk the host tagged with SERIAL.
disk_by_serial() {
	for d in /sys/block/vd*; do
		[ "$(cat "$d/serial" 2>/dev/null)" = "$1" ] && echo "/dev/${d##*/}" && return 0
	done
	return 1
}

# pmalloc_idle_kb: what pmalloc's pools map, in kB (its held pages less the free ones, which
# a policy load gives back with pmalloc_trim()); nothing without pmalloc. Read before a boot's
# first SELinux policy, it is what the SELinux benchmarks count the policy's pages from
# ($SELINUX_PMALLOC_IDLE_KB): every page pmalloc holds past it counts for the policy.
pmalloc_idle_kb() {
	awk '$1 == "#" && $2 == "blocks" { print ($5 - $7) * 4 }' \
		/sys/kernel/debug/pmalloc_pools 2>/dev/null
}
