# Helpers for guest jobs (sourced from /lib/mmtest.sh).

# disk_by_serial SERIAL: the /dev node of the virtio disk the host tagged with SERIAL.
disk_by_serial() {
	for d in /sys/block/vd*; do
		[ "$(cat "$d/serial" 2>/dev/null)" = "$1" ] && echo "/dev/${d##*/}" && return 0
	done
	return 1
}
