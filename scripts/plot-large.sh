#!/bin/bash
# plot-large.sh [BENCH_JSON [PNG]]: plot memory used per byte requested against the large
# kmalloc class size, classes on and off, from the large.ratio_<N>k and
# large.off.ratio_<N>k figures that the test_kmalloc_large_bench module puts in bench.json.
. "$(dirname "$0")/lib.sh"

json=${1:-$RESULTS/bench.json}
png=${2:-$RESULTS/large-ratio.png}
data=$RESULTS/large-ratio.dat

# "large.ratio_12k": 1.0345, and "large.off.ratio_12k": 1.2987, -> 12 1.0345 1.2987
# (large.ratio_640k is the 640 KiB workload, not a class: left out)
sed -n 's/^ *"large\.\(off\.\)\{0,1\}ratio_\([0-9]*\)k": \([0-9.]*\).*/\2 \1 \3/p' "$json" |
	awk '{ if ($2 == "off.") off[$1] = $3; else { on[$1] = $2; k[n++] = $1 } }
	     END { for (i = 0; i < n; i++) if (k[i] in off && k[i] != 640) print k[i], on[k[i]], off[k[i]] }' |
	sort -n >"$data"
[ -s "$data" ] || die "no large.ratio_<N>k figures in $json"

gnuplot <<GP || die "gnuplot failed"
set terminal pngcairo size 900,500 noenhanced
set output '$png'
set title 'kmalloc above 8 KiB: memory used per byte requested, per size class'
set xlabel 'size class (KiB, requests uniform between the class below and it)'
set ylabel 'bytes used / bytes requested'
set logscale x 2
set grid
set key top left
plot '$data' using 1:3 with linespoints title 'classes off (page allocator)', \
     '$data' using 1:2 with linespoints title 'large kmalloc classes'
GP
log "plot: $png ($(wc -l <"$data") classes)"
