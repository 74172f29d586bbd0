#!/bin/bash
# plot-large.sh [BENCH_JSON [PNG]]: plot memory used per byte requested against the size of
# a large kmalloc (requests uniform in (N/2, N] KiB), as page runs and as the page
# allocator's blocks, from the large.ratio_<N>k and large.off.ratio_<N>k figures that
# lib/test_kmalloc_large_bench.c puts in bench.json.
. "$(dirname "$0")/lib.sh"

json=${1:-$RESULTS/bench.json}
png=${2:-$RESULTS/large-ratio.png}
data=$RESULTS/large-ratio.dat

# "large.ratio_12k": 1.0345, and "large.off.ratio_12k": 1.2987, -> 12 1.0345 1.2987
# (large.ratio_640k is the 640 KiB workload, not a range: left out)
sed -n 's/^ *"large\.\(off\.\)\{0,1\}ratio_\([0-9]*\)k": \([0-9.]*\).*/\2 \1 \3/p' "$json" |
	awk '{ if ($2 == "off.") off[$1] = $3; else { on[$1] = $2; k[n++] = $1 } }
	     END { for (i = 0; i < n; i++) if (k[i] in off && k[i] != 640) print k[i], on[k[i]], off[k[i]] }' |
	sort -n >"$data"
[ -s "$data" ] || die "no large.ratio_<N>k figures in $json"

gnuplot <<GP || die "gnuplot failed"
set terminal pngcairo size 900,500 noenhanced
set output '$png'
set title 'kmalloc above 8 KiB: memory used per byte requested'
set xlabel 'size (KiB, requests uniform in (N/2, N])'
set ylabel 'bytes used / bytes requested'
set logscale x 2
set grid
set key top left
plot '$data' using 1:3 with linespoints title 'power-of-two blocks (before)', \
     '$data' using 1:2 with linespoints title 'page runs'
GP
log "plot: $png ($(wc -l <"$data") ranges)"
