#!/bin/bash
# Count KTAP results with tools/testing/kunit/kunit.py parse, one line per file, and a
# closing "N passed, N failed, N skipped" line. A file the parser cannot read, or in which
# it finds no test, counts as one failure: a suite that did not run is not a pass.
. "$(dirname "$0")/lib.sh"

kunit=$TREE/tools/testing/kunit/kunit.py
tp=0 tf=0 ts=0
for f in "$@"; do
	[ -f "$f" ] || continue
	line=$(python3 "$kunit" parse --summary "$f" 2>&1 | grep -a 'Testing complete' | tail -n1)
	p=$(echo "$line" | sed -n 's/.*passed: \([0-9]*\).*/\1/p')
	fl=$(echo "$line" | sed -n 's/.*failed: \([0-9]*\).*/\1/p')
	s=$(echo "$line" | sed -n 's/.*skipped: \([0-9]*\).*/\1/p')
	c=$(echo "$line" | sed -n 's/.*crashed: \([0-9]*\).*/\1/p')
	e=$(echo "$line" | sed -n 's/.*errors: \([0-9]*\).*/\1/p')
	p=${p:-0} fl=$((${fl:-0} + ${c:-0} + ${e:-0})) s=${s:-0}
	if [ $((p + fl + s)) -eq 0 ]; then
		fl=1
		line="no test results: ${line:-parser found nothing}"
	fi
	printf '%-40s %3d passed, %3d failed, %3d skipped\n' "$(basename "$f" .ktap)" "$p" "$fl" "$s"
	[ "$fl" -gt 0 ] && python3 "$kunit" parse --failed "$f" 2>&1 | grep -aE 'FAILED|CRASHED|ERROR|\[FAIL' | sed 's/^/    /'
	tp=$((tp + p)) tf=$((tf + fl)) ts=$((ts + s))
done
echo "$tp passed, $tf failed, $ts skipped"
