#!/usr/bin/env bash
# Point select by primary key, side by side on the same server and table:
#   1. sysbench oltp_point_select (10 point selects per event, prepared
#      statements, uniform ids) on sysbench's own sbtest1;
#   2. joinbench run of bench/corpus/point_select_sbtest.sql (the same
#      statement, 10 per event, prepared, uniform ids, no transaction) with
#      every execution recorded to Parquet and plans captured.
# Prints both queries/s and the joinbench/sysbench ratio (target >= 1.0).
#
# Server: HOST, PORT, USER, PASSWORD name yours; without PORT a throwaway
# sandbox is started (bench/lib.sh). DB (default jbbench_point) is created.
# THREADS (2), TIME (20 seconds) and SIZE (100000 rows) set the load.
set -euo pipefail

DB=${DB:-jbbench_point}
THREADS=${THREADS:-2}
TIME=${TIME:-20}
SIZE=${SIZE:-100000}

. "$(dirname "$0")/lib.sh"
dsn=$(bench_dsn)

sb=(sysbench oltp_point_select --db-driver=mysql --mysql-host="$HOST" --mysql-port="$PORT"
	--mysql-user="$USER" --mysql-password="$PASSWORD" --mysql-db="$DB"
	--tables=1 --table-size="$SIZE" --rand-type=uniform --db-ps-mode=auto)
"${sb[@]}" cleanup >/dev/null
"${sb[@]}" prepare >/dev/null

echo "== sysbench oltp_point_select, $THREADS threads, ${TIME}s" >&2
/usr/bin/time -f "cpu %U %S" -o "$work/sysbench.time" "${sb[@]}" --threads="$THREADS" --time="$TIME" --report-interval=0 run >"$work/sysbench.txt"
sb_qps=$(awk '/queries:/ { gsub(/[(]/, "", $3); print $3 }' "$work/sysbench.txt")
sb_q=$(awk '/queries:/ { print $2 }' "$work/sysbench.txt")
sb_cpu=$(awk '/^cpu/ { print $2 + $3 }' "$work/sysbench.time")
grep -E "queries:|avg:|95th" "$work/sysbench.txt" >&2

echo "== joinbench run, $THREADS threads, ${TIME}s" >&2
/usr/bin/time -v "$bin" run --dsn "$dsn" --no-builtin --corpus bench/corpus -s point_select_sbtest=10 \
	--skip-trx --threads "$THREADS" --time "${TIME}s" --out "$work/results" --report-interval 0 \
	--json >"$work/joinbench.json" 2>"$work/joinbench.err" || { cat "$work/joinbench.err" >&2; exit 1; }
jb_qps=$(python3 -c 'import json,sys; print(round(json.load(open(sys.argv[1]))["queries_per_second"], 2))' "$work/joinbench.json")
rss=$(awk -F: '/Maximum resident/ { gsub(/ /, "", $2); print $2 }' "$work/joinbench.err")
jb_cpu=$(awk -F: '/User time|System time/ { s += $2 } END { print s }' "$work/joinbench.err")
rows=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["executions"])' "$work/joinbench.json")
du -sh "$work"/results/run=* >&2

"${sb[@]}" cleanup >/dev/null
python3 - "$sb_qps" "$jb_qps" "$rows" "$rss" "$sb_q" "$sb_cpu" "$jb_cpu" <<'PY'
import sys
sb, jb, rows, rss = float(sys.argv[1]), float(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
sb_q, sb_cpu, jb_cpu = int(sys.argv[5]), float(sys.argv[6]), float(sys.argv[7])
print(f"sysbench  queries/s: {sb:10.1f}  client CPU {sb_cpu / sb_q * 1e6:.1f} us/query")
print(f"joinbench queries/s: {jb:10.1f}  client CPU {jb_cpu / rows * 1e6:.1f} us/query ({rows} executions recorded, peak RSS {rss/1024:.0f} MB)")
print(f"ratio joinbench/sysbench: {jb/sb:.3f} queries/s; {sb_cpu / sb_q / (jb_cpu / rows):.3f} in client CPU per query")
PY
