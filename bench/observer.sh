#!/usr/bin/env bash
# The observer effect of work sampling: mean latency of heavy joins with
# `--work sample` (the default) against `--work off`, the same server, data,
# seed and threads, in interleaved pairs (the order within a pair alternates,
# so a machine that slows down over the script weighs on both modes alike).
# Prints, per scenario and pair, both means and their ratio (sample/off),
# then per scenario the median ratio with its spread (min-max over pairs).
# Target: every median within 3% of 1.
#
# Server: HOST, PORT, USER, PASSWORD name yours; without PORT a throwaway
# sandbox is started (bench/lib.sh). DB (default jbbench_observer) is
# prepared with SIZE rows per table (default 10000: multi_left_pk takes
# about 110 ms there, the other two 200-300 ms, on 2 cores) unless
# PREPARED=1 says it already is. PAIRS (3), THREADS (2), TIME (10 seconds
# per run) and SCENARIOS set the load; EXTRA adds flags to every run.
set -euo pipefail

DB=${DB:-jbbench_observer}
PAIRS=${PAIRS:-3}
THREADS=${THREADS:-2}
TIME=${TIME:-10}
SIZE=${SIZE:-10000}
SCENARIOS=${SCENARIOS:-multi_left_pk simple_left_straight multilevel_inner_index}
EXTRA=${EXTRA:-}

. "$(dirname "$0")/lib.sh"
dsn=$(bench_dsn)

if [[ "${PREPARED:-0}" != 1 ]]; then
	"$bin" prepare --dsn "$dsn" --create-database --table-size "$SIZE" --tables 1 -q
fi

# run MODE SCENARIO prints "mean_ms executions" of one run.
run() {
	# shellcheck disable=SC2086
	"$bin" run --dsn "$dsn" -s "$2" --table-size "$SIZE" --tables 1 --threads "$THREADS" --time "${TIME}s" \
		--skip-trx --explain off --report-interval 0 --work "$1" --out "$work/results" --format json -q $EXTRA \
		2>"$work/err" | python3 -c '
import json, sys
s = json.load(sys.stdin)["scenarios"][0]
print(s["mean_ms"], s["executions"])' || { cat "$work/err" >&2; exit 1; }
}

printf "%-24s %4s %12s %12s %10s %10s %8s\n" scenario pair "sample ms" "off ms" "execs s" "execs off" ratio
: >"$work/ratios"
for p in $(seq 1 "$PAIRS"); do
	for s in $SCENARIOS; do
		if ((p % 2)); then
			read -r ms_s n_s < <(run sample "$s")
			read -r ms_o n_o < <(run off "$s")
		else
			read -r ms_o n_o < <(run off "$s")
			read -r ms_s n_s < <(run sample "$s")
		fi
		ratio=$(python3 -c "print(f'{$ms_s / $ms_o:.3f}')")
		printf "%-24s %4d %12.2f %12.2f %10d %10d %8s\n" "$s" "$p" "$ms_s" "$ms_o" "$n_s" "$n_o" "$ratio"
		echo "$s $ratio" >>"$work/ratios"
	done
done

echo
printf "%-24s %8s %16s\n" scenario median "spread (min-max)"
python3 - "$work/ratios" <<'PY'
import statistics, sys
by = {}
for line in open(sys.argv[1]):
    s, r = line.split()
    by.setdefault(s, []).append(float(r))
for s, rs in by.items():
    print(f"{s:<24} {statistics.median(rs):8.3f} {min(rs):7.3f}-{max(rs):.3f}  ({len(rs)} pairs)")
PY
