#!/bin/bash
# make check: every patch in patches/series passes checkpatch.pl --strict with no error,
# warning or check, and (when the tree exists) the tree's commits match patches/.
. "$(dirname "$0")/lib.sh"

cp=$TREE/scripts/checkpatch.pl
if [ ! -x "$cp" ]; then
	"$TOP/scripts/tree.sh" apply >&2 || exit 1
fi
bad=0 n=0
for p in $(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$TOP/patches/series" 2>/dev/null); do
	n=$((n + 1))
	out=$(cd "$TREE" && ./scripts/checkpatch.pl --strict --no-color --terse --show-types "$TOP/patches/$p" 2>&1)
	if echo "$out" | grep -qE '^.*: (ERROR|WARNING|CHECK):'; then
		echo "checkpatch: patches/$p:"
		echo "$out" | grep -E ': (ERROR|WARNING|CHECK):' | sed 's/^/  /'
		bad=$((bad + 1))
	fi
done
log "checkpatch --strict: $n patches, $bad with problems"
[ "$bad" -eq 0 ]
