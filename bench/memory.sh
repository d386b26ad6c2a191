#!/usr/bin/env bash
# Peak memory of a long run: 10 million executions of a point select by
# primary key (bench/corpus/point_select_sbtest.sql, 10 per event) with every
# execution recorded to Parquet. Prints the peak RSS from /usr/bin/time -v;
# the target is under 150 MB whatever the run length.
#
# Server: HOST, PORT, USER, PASSWORD name yours; without PORT a throwaway
# sandbox is started (bench/lib.sh). DB
# (default jbbench_point) gets sysbench's sbtest1 table. EXECUTIONS (10000000)
# and THREADS (2) set the load.
set -euo pipefail

DB=${DB:-jbbench_point}
THREADS=${THREADS:-2}
EXECUTIONS=${EXECUTIONS:-10000000}
SIZE=100000

. "$(dirname "$0")/lib.sh"
dsn=$(bench_dsn)

sb=(sysbench oltp_point_select --db-driver=mysql --mysql-host="$HOST" --mysql-port="$PORT"
	--mysql-user="$USER" --mysql-password="$PASSWORD" --mysql-db="$DB" --tables=1 --table-size="$SIZE")
"${sb[@]}" cleanup >/dev/null
"${sb[@]}" prepare >/dev/null

/usr/bin/time -v "$bin" run --dsn "$dsn" --no-builtin --corpus bench/corpus -s point_select_sbtest=10 \
	--skip-trx --threads "$THREADS" --events $((EXECUTIONS / 10)) --out "$work/results" --report-interval 10s \
	--json >"$work/summary.json" 2>"$work/stderr.txt" || { cat "$work/stderr.txt" >&2; exit 1; }
{ grep -E "^\[" "$work/stderr.txt" || true; } | tail -3 >&2
du -sh "$work"/results/run=* >&2
"${sb[@]}" cleanup >/dev/null
rss=$(awk -F: '/Maximum resident/ { gsub(/ /, "", $2); print $2 }' "$work/stderr.txt")
python3 - "$work/summary.json" "$rss" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
rss = int(sys.argv[2])
print(f"executions: {s['executions']}  elapsed: {s['elapsed_seconds']:.0f}s  queries/s: {s['queries_per_second']:.0f}")
print(f"peak RSS: {rss/1024:.1f} MB (target < 150 MB)")
PY
