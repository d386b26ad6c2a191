#!/usr/bin/env bash
# Point select by primary key, side by side on the same server and table:
#   1. sysbench oltp_point_select (10 point selects per event, prepared
#      statements, uniform ids) on sysbench's own sbtest1;
#   2. joinbench run of bench/corpus/point_select_sbtest.sql (the same
#      statement, 10 per event, prepared, uniform ids, no transaction) with
#      every execution recorded to Parquet and plans captured.
# Each round runs both, in an order drawn at random for the round, so that
# neither always runs on a machine the other has just warmed or left busy.
# Prints each round's queries/s and the median joinbench/sysbench ratio
# with its quartiles and a bootstrap 95% interval (target: median >= 1.0).
#
# Server: HOST, PORT, USER, PASSWORD name yours; without PORT a throwaway
# sandbox is started (bench/lib.sh). DB (default jbbench_point) is created.
# THREADS (2), TIME (8 seconds) and SIZE (100000 rows) set the load; ROUNDS
# (12) how many rounds. On a shared machine the ratio of a single round
# moves by 15-25%: many short rounds give a steadier median than a few long
# ones. OTHER names a second joinbench binary (another build) that runs in
# the same rounds, so that a change is measured against the build before it
# on the same machine at the same time. JB_ARGS and OTHER_ARGS add flags to
# the runs of each (OTHER may be the same build: a flag's cost).
set -euo pipefail

DB=${DB:-jbbench_point}
THREADS=${THREADS:-2}
TIME=${TIME:-8}
SIZE=${SIZE:-100000}
ROUNDS=${ROUNDS:-12}
OTHER=${OTHER:-}
JB_ARGS=${JB_ARGS:-}
OTHER_ARGS=${OTHER_ARGS:-}

. "$(dirname "$0")/lib.sh"
dsn=$(bench_dsn)

sb=(sysbench oltp_point_select --db-driver=mysql --mysql-host="$HOST" --mysql-port="$PORT"
	--mysql-user="$USER" --mysql-password="$PASSWORD" --mysql-db="$DB"
	--tables=1 --table-size="$SIZE" --rand-type=uniform --db-ps-mode=auto)
"${sb[@]}" cleanup >/dev/null
"${sb[@]}" prepare >/dev/null

run_sysbench() {
	echo "== round $round/$ROUNDS: sysbench oltp_point_select, $THREADS threads, ${TIME}s" >&2
	/usr/bin/time -f "cpu %U %S" -o "$work/sysbench.time" "${sb[@]}" --threads="$THREADS" --time="$TIME" --report-interval=0 run >"$work/sysbench.txt"
	sb_qps=$(awk '/queries:/ { gsub(/[(]/, "", $3); print $3 }' "$work/sysbench.txt")
	sb_q=$(awk '/queries:/ { print $2 }' "$work/sysbench.txt")
	sb_cpu=$(awk '/^cpu/ { print $2 + $3 }' "$work/sysbench.time")
}

# run_joinbench BIN NAME [FLAGS] sets jb_* to the run's queries/s,
# executions, peak RSS and client CPU.
run_joinbench() {
	echo "== round $round/$ROUNDS: $2 run, $THREADS threads, ${TIME}s ${3:-}" >&2
	# shellcheck disable=SC2086 # FLAGS are words
	/usr/bin/time -v "$1" run --dsn "$dsn" --no-builtin --corpus bench/corpus -s point_select_sbtest=10 \
		--skip-trx --threads "$THREADS" --time "${TIME}s" --out "$work/results" --report-interval 0 ${3:-} \
		--json >"$work/joinbench.json" 2>"$work/joinbench.err" || { cat "$work/joinbench.err" >&2; exit 1; }
	jb_qps=$(python3 -c 'import json,sys; print(round(json.load(open(sys.argv[1]))["queries_per_second"], 2))' "$work/joinbench.json")
	jb_rss=$(awk -F: '/Maximum resident/ { gsub(/ /, "", $2); print $2 }' "$work/joinbench.err")
	jb_cpu=$(awk -F: '/User time|System time/ { s += $2 } END { print s }' "$work/joinbench.err")
	jb_rows=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["executions"])' "$work/joinbench.json")
	rm -rf "$work"/results/run=*
}

for round in $(seq 1 "$ROUNDS"); do
	order=(sysbench joinbench)
	[[ -n "$OTHER" ]] && order+=(other)
	mapfile -t order < <(printf '%s\n' "${order[@]}" | shuf)
	for tool in "${order[@]}"; do
		case $tool in
		sysbench) run_sysbench ;;
		joinbench)
			run_joinbench "$bin" joinbench "$JB_ARGS"
			jb=("$jb_qps" "$jb_rows" "$jb_rss" "$jb_cpu")
			;;
		other)
			run_joinbench "$OTHER" "other build" "$OTHER_ARGS"
			ot=("$jb_qps" "$jb_rows" "$jb_rss" "$jb_cpu")
			;;
		esac
	done
	line="${jb[0]} ${jb[1]} ${jb[2]} ${jb[3]} $sb_qps $sb_q $sb_cpu ${order[*]}"
	[[ -n "$OTHER" ]] && line+=" | ${ot[*]}"
	echo "$line" >>"$work/rounds.txt"
done

"${sb[@]}" cleanup >/dev/null
python3 - "$work/rounds.txt" <<'PY'
import random, statistics, sys

def summary(name, ratios):
    """The median ratio, its quartiles and a bootstrap 95% interval."""
    ratios = sorted(ratios)
    q = statistics.quantiles(ratios, n=4) if len(ratios) > 1 else [ratios[0]] * 3
    rng = random.Random(1)
    meds = sorted(statistics.median(rng.choices(ratios, k=len(ratios))) for _ in range(10000))
    print(f"ratio {name} queries/s, median of {len(ratios)} rounds: {statistics.median(ratios):.3f} "
          f"(quartiles {q[0]:.3f}-{q[2]:.3f}, range {ratios[0]:.3f}-{ratios[-1]:.3f}, "
          f"bootstrap 95% interval of the median {meds[250]:.3f}-{meds[9749]:.3f})")

ratios, others, vs = [], [], []
for i, line in enumerate(open(sys.argv[1]), 1):
    main, _, other = line.partition("|")
    r = main.split()
    jb, rows, rss, jb_cpu = float(r[0]), int(r[1]), int(r[2]), float(r[3])
    sb, sb_q, sb_cpu = float(r[4]), int(r[5]), float(r[6])
    ratios.append(jb / sb)
    text = (f"round {i} ({', '.join(r[7:])}): sysbench {sb:9.1f} q/s ({sb_cpu / sb_q * 1e6:.1f} us client CPU/query), "
            f"joinbench {jb:9.1f} q/s ({jb_cpu / rows * 1e6:.1f} us/query, {rows} executions recorded, "
            f"peak RSS {rss / 1024:.0f} MB): ratio {jb / sb:.3f}")
    if other.strip():
        o = other.split()
        ot, ot_rows, ot_cpu = float(o[0]), int(o[1]), float(o[3])
        others.append(ot / sb)
        vs.append(jb / ot)
        text += f"; other build {ot:9.1f} q/s ({ot_cpu / ot_rows * 1e6:.1f} us/query): ratio {ot / sb:.3f}"
    print(text)
summary("joinbench/sysbench", ratios)
if others:
    summary("other build/sysbench", others)
    summary("joinbench/other build", vs)
PY
