#!/bin/bash
# Make a large SELinux policy.conf from the dummy (mdp) one, for the SELinux benchmarks and
# tests: TYPES types, RULES unconditional allow rules (one avtab entry each: distinct source,
# target and class) and BOOLS booleans guarding COND rules each way.
# Usage: selinux-large-policy.sh POLICY.CONF >LARGE.CONF
# Environment: TYPES (600), RULES (120000), BOOLS (60), COND (50).
set -e
conf=${1:?usage: selinux-large-policy.sh POLICY.CONF}
awk -v types="${TYPES:-600}" -v rules="${RULES:-120000}" -v bools="${BOOLS:-60}" \
    -v cond="${COND:-50}" '
	function t(i) { return "lt" (i % types) }
	BEGIN { ncls = split("file dir lnk_file", cls, " ") }
	/^type base_t;$/ {
		print
		for (i = 0; i < types; i++)
			print "type " t(i) ";"
		for (b = 0; b < bools; b++)
			print "bool lb" b " " (b % 2 ? "true" : "false") ";"
		next
	}
	/^role base_r types \{ base_t \};$/ {
		printf "role base_r types { base_t"
		for (i = 0; i < types; i++)
			printf " %s", t(i)
		print " };"
		# Every source type reaches the next rules / types targets, in one of three
		# classes: RULES distinct (source, target, class) keys.
		per = int((rules + types - 1) / types)
		n = 0
		for (i = 0; i < types && n < rules; i++)
			for (j = 0; j < per && n < rules; j++)
				{ print "allow " t(i) " " t(i + j) ":" cls[1 + (i + j) % ncls] " { read getattr open };"; n++ }
		for (b = 0; b < bools; b++) {
			print "if (lb" b ") {"
			for (j = 0; j < cond; j++)
				print "\tallow " t(b + j) " " t(b * 7 + j) ":sock_file { read write };"
			print "} else {"
			for (j = 0; j < cond; j++)
				print "\tallow " t(b + j) " " t(b * 7 + j) ":fifo_file { read };"
			print "}"
		}
		next
	}
	{ print }
' "$conf"
