#!/bin/bash
# check-cover.sh MARKER END: the cover letter of the series from marker commit MARKER to
# commit END (see tree.sh; the cover letter is the marker's message) refers to its patches
# rightly. A reference to one patch names its whole subject, 'patch N ("<subject>")' (or
# 'Patch N'), so that a number left stale by a reworked series cannot go unnoticed; a range
# or list ('patches 3-8', 'patches 3 to 8', 'patches 2, 3 and 6') needs none. Every number
# must be a patch of the series, and a subject must be exactly patch N's. The text is unwrapped
# first (every run of whitespace made one space): a reference may be wrapped anywhere.
# Prints each wrong reference as 'series: "patch N ...": why'; fails if there is one.
. "$(dirname "$0")/lib.sh"

[ $# -eq 2 ] || die "usage: check-cover.sh MARKER END"
cd "$TREE" || exit 1
name=$(git log -1 --format="%(trailers:key=$MARKER,valueonly,separator=)" "$1")
[ -n "$name" ] || die "$1 is not a series marker commit (no '$MARKER:' trailer)"

# The first input is the patches' subjects in order, the second the unwrapped cover letter.
awk -v series="$name" '
	FILENAME == ARGV[1] { gsub(/[[:space:]]+/, " "); subj[++n] = $0; next }
	function bad(ref, why) { printf "%s: \"%s\": %s\n", series, ref, why; nbad++ }
	function none(k) { return "no patch " k ": the series has " n " patches" }
	{
		s = $0
		while (match(s, /[Pp]atch(es)? [0-9]+/)) {
			ref = substr(s, RSTART, RLENGTH)
			word = RSTART == 1 || substr(s, RSTART - 1, 1) !~ /[[:alnum:]_]/
			s = substr(s, RSTART + RLENGTH)
			if (!word)
				continue
			if (ref ~ /^[Pp]atches/) {
				while (match(s, /^(-| to |, | and |, and | or )[0-9]+/)) {
					ref = ref substr(s, 1, RLENGTH)
					s = substr(s, RLENGTH + 1)
				}
				m = split(ref, num, /[^0-9]+/)
				for (i = 2; i <= m; i++)
					if (num[i] < 1 || num[i] > n)
						bad(ref, none(num[i]))
				continue
			}
			k = substr(ref, 7) + 0
			if (substr(s, 1, 3) != " (\"") {
				# with a few words after it, to find it by
				t = s
				for (i = 0; i < 4 && match(t, /^ ?[^ ]+/); i++) {
					ref = ref substr(t, 1, RLENGTH)
					t = substr(t, RLENGTH + 1)
				}
				bad(ref " ...", k >= 1 && k <= n ? \
					"no (\"subject\") after the number; patch " k " is \"" subj[k] "\"" : none(k))
				continue
			}
			e = index(s, "\")")
			if (!e) {
				bad(ref substr(s, 1, 40) " ...", "no \") closing the subject")
				continue
			}
			q = substr(s, 4, e - 4)
			ref = ref substr(s, 1, e + 1)
			s = substr(s, e + 2)
			if (k < 1 || k > n)
				bad(ref, none(k))
			else if (q != subj[k]) {
				why = "not the subject of patch " k ", which is \"" subj[k] "\""
				for (i = 1; i <= n; i++)
					if (q == subj[i])
						why = why "; that is the subject of patch " i
				bad(ref, why)
			}
		}
	}
	END { exit nbad > 0 }
' <(git log --reverse --format=%s "$1..$2") <(marker_text "$1" | tr -s '[:space:]' ' '; echo)
