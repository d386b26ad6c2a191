#!/usr/bin/env bash
# Point select by primary key, side by side on the same server and table:
#   1. sysbench oltp_point_select (10 point selects per event, prepared
#      statements, uniform ids) on sysbench's own sbtest1;
#   2. joinbench run of bench/corpus/point_select_sbtest.sql (the same
#      statement, 10 per event, prepared, uniform ids, no transaction) with
#      every execution recorded to Parquet and plans captured.
# Prints both queries/s per round and the median joinbench/sysbench ratio
# (target >= 1.0).
#
# Server: HOST, PORT, USER, PASSWORD name yours; without PORT a throwaway
# sandbox is started (bench/lib.sh). DB (default jbbench_point) is created.
# THREADS (2), TIME (20 seconds) and SIZE (100000 rows) set the load; ROUNDS
# (3) how many times the two alternate.
set -euo pipefail

DB=${DB:-jbbench_point}
THREADS=${THREADS:-2}
TIME=${TIME:-20}
SIZE=${SIZE:-100000}
ROUNDS=${ROUNDS:-3}

. "$(dirname "$0")/lib.sh"
dsn=$(bench_dsn)

sb=(sysbench oltp_point_select --db-driver=mysql --mysql-host="$HOST" --mysql-port="$PORT"
	--mysql-user="$USER" --mysql-password="$PASSWORD" --mysql-db="$DB"
	--tables=1 --table-size="$SIZE" --rand-type=uniform --db-ps-mode=auto)
"${sb[@]}" cleanup >/dev/null
"${sb[@]}" prepare >/dev/null

# Rounds alternate the two tools so that both see the same machine (shared
# machines are noisy); the ratio reported is the median of the rounds'.
for round in $(seq 1 "$ROUNDS"); do
	echo "== round $round/$ROUNDS: sysbench oltp_point_select, $THREADS threads, ${TIME}s" >&2
	/usr/bin/time -f "cpu %U %S" -o "$work/sysbench.time" "${sb[@]}" --threads="$THREADS" --time="$TIME" --report-interval=0 run >"$work/sysbench.txt"
	sb_qps=$(awk '/queries:/ { gsub(/[(]/, "", $3); print $3 }' "$work/sysbench.txt")
	sb_q=$(awk '/queries:/ { print $2 }' "$work/sysbench.txt")
	sb_cpu=$(awk '/^cpu/ { print $2 + $3 }' "$work/sysbench.time")

	echo "== round $round/$ROUNDS: joinbench run, $THREADS threads, ${TIME}s" >&2
	/usr/bin/time -v "$bin" run --dsn "$dsn" --no-builtin --corpus bench/corpus -s point_select_sbtest=10 \
		--skip-trx --threads "$THREADS" --time "${TIME}s" --out "$work/results" --report-interval 0 \
		--json >"$work/joinbench.json" 2>"$work/joinbench.err" || { cat "$work/joinbench.err" >&2; exit 1; }
	jb_qps=$(python3 -c 'import json,sys; print(round(json.load(open(sys.argv[1]))["queries_per_second"], 2))' "$work/joinbench.json")
	rss=$(awk -F: '/Maximum resident/ { gsub(/ /, "", $2); print $2 }' "$work/joinbench.err")
	jb_cpu=$(awk -F: '/User time|System time/ { s += $2 } END { print s }' "$work/joinbench.err")
	rows=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["executions"])' "$work/joinbench.json")
	echo "$sb_qps $jb_qps $rows $rss $sb_q $sb_cpu $jb_cpu" >>"$work/rounds.txt"
	rm -rf "$work"/results/run=*
done

"${sb[@]}" cleanup >/dev/null
python3 - "$work/rounds.txt" <<'PY'
import statistics, sys
rounds = [line.split() for line in open(sys.argv[1])]
ratios = []
for i, r in enumerate(rounds, 1):
    sb, jb, rows, rss = float(r[0]), float(r[1]), int(r[2]), int(r[3])
    sb_q, sb_cpu, jb_cpu = int(r[4]), float(r[5]), float(r[6])
    ratios.append(jb / sb)
    print(f"round {i}: sysbench {sb:9.1f} q/s ({sb_cpu / sb_q * 1e6:.1f} us client CPU/query), "
          f"joinbench {jb:9.1f} q/s ({jb_cpu / rows * 1e6:.1f} us/query, {rows} executions recorded, "
          f"peak RSS {rss / 1024:.0f} MB): ratio {jb / sb:.3f}")
print(f"ratio joinbench/sysbench queries/s, median of {len(ratios)}: {statistics.median(ratios):.3f}")
PY
