#!/bin/sh
# The census of issue 29: every slab cache whose objects are larger than half a page, from
# /sys/kernel/slab (aliases skipped), with its object size, slab size per object (object
# and metadata), order, objects per slab and the bytes each object costs beyond its size at
# SLUB's order, beside what a slab of one pageblock (order $1, default 9) would give. Prints
# a table (ratio: slab bytes / (objects x object size)), then "# bench: slab.census_caches N".
big=${1:-9}
page=$(getconf PAGESIZE 2>/dev/null || echo 4096)
printf '%-20s %8s %8s %5s %5s %9s %7s %5s %9s %7s\n' cache object size order objs \
	waste/obj ratio objs9 waste9/obj ratio9
for c in /sys/kernel/slab/*; do
	[ -L "$c" ] && continue
	obj=$(cat "$c/object_size") size=$(cat "$c/slab_size")
	[ "$obj" -gt $((page / 2)) ] || continue
	order=$(cat "$c/order") objs=$(cat "$c/objs_per_slab")
	slab=$((page << order)) slab9=$((page << big))
	objs9=$((slab9 / size))
	[ "$objs9" -gt 0 ] || objs9=1 slab9=$slab
	echo "${c##*/} $obj $size $order $objs $slab $objs9 $slab9"
done | sort -k2,2n -k1,1 | awk -v big="$big" '{
	w = $6 / $5 - $2; r = $6 / ($5 * $2)
	w9 = $8 / $7 - $2; r9 = $8 / ($7 * $2)
	printf "%-20s %8d %8d %5d %5d %9d %7.4f %5d %9d %7.4f\n",
		$1, $2, $3, $4, $5, w, r, $7, w9, r9
	n++
} END { printf "# bench: slab.census_caches %d\n", n }'
