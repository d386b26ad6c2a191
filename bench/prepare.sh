#!/usr/bin/env bash
# Loads 4 main + 5 level tables of 100,000 rows with 2 threads and prints
# rows/s for:
#   1. sysbench's join workload (skipped: its Lua scripts do not ship with
#      sysbench and are not available here);
#   2. joinbench prepare;
#   3. the raw ceiling: LOAD DATA LOCAL INFILE of the same rows, written to
#      files beforehand, into the same tables with the same indexes, by the
#      same number of parallel sessions;
# and the joinbench/ceiling ratio.
#
# Uses $DSN (a Go MySQL DSN with a database, e.g.
# 'root@tcp(127.0.0.1:3306)/jbbench') or else starts a sandbox server.
# TABLES, SIZE and THREADS override the sizes.
set -euo pipefail
cd "$(dirname "$0")/.."

TABLES=${TABLES:-4}
SIZE=${SIZE:-100000}
THREADS=${THREADS:-2}
work=$(mktemp -d)
bin=$work/joinbench
go build -o "$bin" ./cmd/joinbench

sandbox=""
cleanup() {
	if [ -n "$sandbox" ]; then "$bin" sandbox stop -n "$sandbox" >/dev/null 2>&1 || true; fi
	rm -rf "$work"
}
trap cleanup EXIT
if [ -z "${DSN:-}" ]; then
	sandbox=jbprepare$$
	DSN=$("$bin" sandbox start -n "$sandbox" --buffer-pool-size 2G --database jbbench 2>/dev/null)
fi
user=$(sed -E 's/^([^:@]*).*/\1/' <<<"$DSN")
host=$(sed -nE 's/.*tcp\(([^:)]*):?([0-9]*)\).*/\1/p' <<<"$DSN")
port=$(sed -nE 's/.*tcp\(([^:)]*):([0-9]+)\).*/\2/p' <<<"$DSN")
db=$(sed -nE 's|.*\)/([^?]*).*|\1|p' <<<"$DSN")
pass=$(sed -nE 's/^[^:@]*:([^@]*)@.*/\1/p' <<<"$DSN")
client=(mariadb -u"$user" -h"${host:-127.0.0.1}" -P"${port:-3306}" --local-infile=1)
[ -n "$pass" ] && client+=(-p"$pass")
"${client[@]}" -e "CREATE DATABASE IF NOT EXISTS \`$db\`"
rows=$(( (TABLES + 5) * SIZE ))
common=(--dsn "$DSN" --tables "$TABLES" -q)
now() { date +%s.%N; }
rate() { awk -v r="$1" -v s="$2" 'BEGIN { printf "%.0f", r / s }'; }

echo "server: $("${client[@]}" -N -e 'SELECT VERSION()'), $TABLES main + 5 level tables of $SIZE rows, $THREADS threads"
echo "1. sysbench join workload: skipped (its Lua scripts are not available)"

"$bin" cleanup "${common[@]}" >/dev/null
t0=$(now)
"$bin" prepare "${common[@]}" --table-size "$SIZE" --threads "$THREADS"
t1=$(now)
jb_secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')
jb_rate=$(rate "$rows" "$jb_secs")
echo "2. joinbench prepare: $rows rows in ${jb_secs}s = $jb_rate rows/s"

# The ceiling: the same rows from files, the same tables (created by
# prepare with one row, then emptied), LOAD DATA by $THREADS sessions.
"$bin" prepare "${common[@]}" --table-size "$SIZE" --dump-csv "$work/tsv" >/dev/null
"$bin" cleanup "${common[@]}" >/dev/null
"$bin" prepare "${common[@]}" --table-size 1 --no-analyze >/dev/null
tables=$(for i in $(seq 1 "$TABLES"); do echo "main$i"; done; for i in 1 2 3 4 5; do echo "level$i"; done)
for t in $tables; do "${client[@]}" "$db" -e "TRUNCATE TABLE \`$t\`"; done
t0=$(now)
i=0
for t in $tables; do echo "$i $t"; i=$(( (i + 1) % THREADS )); done >"$work/plan"
pids=()
for w in $(seq 0 $((THREADS - 1))); do
	(
		sql="SET SESSION time_zone='+00:00'; SET SESSION unique_checks=0; SET SESSION foreign_key_checks=0;"
		while read -r n t; do
			[ "$n" = "$w" ] || continue
			sql+=" LOAD DATA LOCAL INFILE '$work/tsv/$t.tsv' INTO TABLE \`$t\` CHARACTER SET binary;"
		done <"$work/plan"
		"${client[@]}" "$db" -e "$sql"
	) &
	pids+=($!)
done
for p in "${pids[@]}"; do wait "$p"; done
"${client[@]}" "$db" -e "ANALYZE TABLE $(tr '\n' ',' <<<"$tables" | sed 's/,$//')" >/dev/null
t1=$(now)
ceil_secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')
ceil_rate=$(rate "$rows" "$ceil_secs")
echo "3. raw ceiling (LOAD DATA of pre-written files): $rows rows in ${ceil_secs}s = $ceil_rate rows/s"
awk -v a="$jb_rate" -v b="$ceil_rate" 'BEGIN { printf "joinbench / ceiling = %.2f\n", a / b }'
"$bin" cleanup "${common[@]}" >/dev/null
