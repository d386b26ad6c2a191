#!/usr/bin/env bash
# The performance table in one run: every side-by-side comparison the
# project keeps a goal for, one after the other on the same machine, each
# with its own script, and a table of their summaries at the end:
#   lint         lint.sh: 10,000 scenario files, and the one-file
#                pre-commit case (goal: under 0.5 s wall on 2 cores)
#   point        point_select.sh: point select against sysbench's
#                oltp_point_select (goal: at least 1.05 of its queries/s)
#   galera       galera_start.sh: a 3-node sandbox cluster until Synced,
#                seeded against by full state transfer (goal: under 20 s)
#   prepare      prepare.sh: 4 main + 5 level tables of 100,000 rows against
#                LOAD DATA of the same rows (goal: at least 1.0)
#   report       report_vs_duckdb.sh: report and compare over 1M and 10M
#                executions against DuckDB (goal: at most 1.0 of its time;
#                at 1M both take a tenth of a second and joinbench's fixed
#                costs show); its first run compiles DuckDB (minutes)
# ONLY (all of the above) picks some, e.g. ONLY="lint prepare". REPS (5)
# is each script's repetitions (rounds for point select: twice REPS). Each
# script's whole output is kept in LOG_DIR (a new temporary folder) and
# named at the end. The machine may be shared: the table prints the load
# average before and after each row; a row measured under load says so.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

ONLY=${ONLY:-"lint point galera prepare report"}
REPS=${REPS:-5}
LOG_DIR=${LOG_DIR:-$(mktemp -d)}
mkdir -p "$LOG_DIR"

load() { cut -d' ' -f1 /proc/loadavg; }
rows=()

# row NAME GOAL SCRIPT ENV...: runs SCRIPT with the environment ENV, keeps
# its output in LOG_DIR/NAME.log and prints what it printed on the way.
row() {
	local name=$1 script=$2
	shift 2
	local before after start
	before=$(load)
	start=$(date +%s)
	echo "== $name: $script $* (load $before)" >&2
	if ! env "$@" bash "bench/$script" 2>&1 | tee "$LOG_DIR/$name.log" >&2; then
		echo "$name: $script failed; its output is $LOG_DIR/$name.log" >&2
		exit 1
	fi
	after=$(load)
	echo "$name" "$before" "$after" "$(($(date +%s) - start))" >>"$LOG_DIR/loads"
}

for what in $ONLY; do
	case $what in
	lint) row lint lint.sh RUNS="$REPS" ;;
	point) row point point_select.sh ROUNDS=$((2 * REPS)) ;;
	galera) row galera galera_start.sh RUNS="$REPS" ;;
	prepare) row prepare prepare.sh RUNS="$REPS" ;;
	report) row report report_vs_duckdb.sh ROWS="1000000 10000000" REPS="$REPS" ;;
	*)
		echo "ONLY: unknown row $what (lint, point, galera, prepare, report)" >&2
		exit 2
		;;
	esac
done

# The summary lines each script prints, one table row per script.
summary() {
	local log=$LOG_DIR/$1.log
	case $1 in
	lint) grep -E '^  (10000|[0-9]+) files:|^  one file:' "$log" | sed 's/^ *//' | paste -sd';' ;;
	point) grep '^ratio joinbench/sysbench' "$log" ;;
	galera) grep -E '^(seeded|by transfer|seeded / by transfer, medians):' "$log" | paste -sd';' ;;
	prepare) grep -E '^joinbench / ceiling' "$log" | paste -sd';' ;;
	report) grep -E '^[0-9]+ executions,|median: joinbench|median CPU time ratio' "$log" | sed '/executions,/s/;.*//' | paste -sd';' ;;
	esac
}

echo
echo "| row | goal | measured (median, range) | load before / after | seconds |"
echo "|---|---|---|---|---|"
while read -r name before after secs; do
	case $name in
	lint) goal="10,000 files under 0.5 s wall" ;;
	point) goal="at least 1.05 of sysbench" ;;
	galera) goal="all Synced under 20 s" ;;
	prepare) goal="at least 1.0 of LOAD DATA" ;;
	report) goal="at most 1.0 of DuckDB's time" ;;
	esac
	echo "| $name | $goal | $(summary "$name") | $before / $after | $secs |"
done <"$LOG_DIR/loads"
echo
echo "each script's output: $LOG_DIR"
