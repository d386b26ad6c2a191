#!/usr/bin/env bash
# How large a slowdown a verdict catches on this machine: the power curve
# of joinbench ab (and, with SINGLE=1, of a plain run on each side compared
# by joinbench compare).
#
# REPS (5) A/A comparisons are recorded: joinbench ab with the same server
# on both sides (nothing differs but the noise of this machine and setup),
# at the settings under test (INTERLEAVE, ROUNDS, TIME, THREADS, TAGS).
# Then, for each FACTOR (1.00 1.05 1.10 1.20 1.50), every candidate
# latency of each comparison is multiplied by it (go run ./bench/power:
# the runs rewritten with the project's own writer, start times kept) and
# the sides are compared again with joinbench compare. Per factor it
# prints how often the overall row is a regression, and the share of
# scenarios called a regression, over the comparisons, with 95% Wilson
# intervals (the scenarios of one comparison are not independent: their
# interval understates the uncertainty); at 1.00 these are the false alarms. It also prints the median
# of the smallest slowdown each "no change" said it could have seen.
#
# The injected slowdown is uniform: every statement of every scenario
# exactly FACTOR times slower, the noise left as it was. A real slowdown is
# rarely uniform, and a slower server would also have run fewer
# statements in the same time; read the curve as the power of the test
# for the effect injected (bench/power/main.go says more).
#
# HELD (e.g. "0 20") measures with a real slower candidate instead: for
# each repetition, one joinbench ab per value, in turn, with
# --candidate-slow VALUE% (the candidate is the same server with each
# answer held back VALUE% of the server's time by a proxy; the base goes
# through the same kind of proxy, holding nothing, so 0 is an A/A through
# the proxies). It prints, per value, how often the overall row is a
# regression and the share of scenarios called one, with the same
# intervals, and the slowdown the proxy measured it gave. A slowdown
# given this way reaches every statement of every scenario, as the
# injection does, but on a live server: the candidate also runs fewer
# statements in the time, and its noise is its own.
#
# Server: SANDBOX names a running named sandbox (SANDBOX_DIR); else a
# throwaway one is started (BUFFER_POOL, default 256M) and removed at the
# end. DB (jbbench_power) is prepared on it with TABLES (1) x SIZE (10000)
# rows, seed 1. Everything stays in OUT (default: a temporary folder,
# removed) so that the comparisons can be judged again offline; the load
# average is printed with each A/A run: the figures depend on it.
set -euo pipefail
cd "$(dirname "$0")/.."

REPS=${REPS:-5}
FACTORS=${FACTORS:-"1.00 1.05 1.10 1.20 1.50"}
DB=${DB:-jbbench_power}
TABLES=${TABLES:-1}
SIZE=${SIZE:-10000}
TAGS=${TAGS:-inner,left,right,derived,semi_anti}
THREADS=${THREADS:-2}
INTERLEAVE=${INTERLEAVE:-statements}
ROUNDS=${ROUNDS:-}
TIME=${TIME:-}
THRESHOLD=${THRESHOLD:-10%}
SINGLE=${SINGLE:-0}
SINGLE_TIME=${SINGLE_TIME:-25s}
HELD=${HELD:-}

work=$(mktemp -d)
bin=$work/joinbench
go build -o "$bin" ./cmd/joinbench
go build -o "$work/power" ./bench/power
OUT=${OUT:-$work/out}
mkdir -p "$OUT"

started=""
cleanup() {
	[[ -z $started ]] || "$bin" sandbox stop -q --name "$started" --sandbox-dir "$work/sandboxes" || true
	rm -rf "$work"
}
trap cleanup EXIT

if [[ -n "${SANDBOX:-}" ]]; then
	[[ -z "${SANDBOX_DIR:-}" ]] || export JOINBENCH_SANDBOX_DIR=$SANDBOX_DIR
	server=(--sandbox "$SANDBOX")
	name=$SANDBOX
else
	started=jbpower
	"$bin" sandbox start -q --name "$started" --sandbox-dir "$work/sandboxes" --database= --buffer-pool-size "${BUFFER_POOL:-256M}" >/dev/null
	export JOINBENCH_SANDBOX_DIR=$work/sandboxes
	server=(--sandbox "$started")
	name=$started
fi
"$bin" prepare -q "${server[@]}" --database "$DB" --tables "$TABLES" --table-size "$SIZE" --seed 1 --recreate
workload=(--tags "$TAGS" --threads "$THREADS" --tables "$TABLES" --table-size "$SIZE" --database "$DB")
schedule=(--interleave "$INTERLEAVE" ${ROUNDS:+--rounds "$ROUNDS"} ${TIME:+--time "$TIME"})
load() { cut -d' ' -f1-3 /proc/loadavg; }
what="$REPS A/A comparisons" factors="; factors $FACTORS"
[[ -z $HELD ]] || what="$REPS comparisons per --candidate-slow of $HELD (%)" factors=""
echo "power: $what on sandbox $name ($(nproc) CPUs); workload --tags $TAGS, $THREADS threads," \
	"$TABLES x $SIZE rows; ab --interleave $INTERLEAVE ${ROUNDS:+--rounds $ROUNDS }${TIME:+--time $TIME}$factors" >&2

# judge REP BASE CAND: compares base with each scaled copy of cand.
judge() {
	local rep=$1 base=$2 cand=$3 f code
	for f in $FACTORS; do
		rm -rf "$OUT/$rep/x$f"
		"$work/power" -factor "$f" "$cand" "$OUT/$rep/x$f"
		code=0
		"$bin" compare -q "$base" "$OUT/$rep/x$f" --threshold "$THRESHOLD" -f json -o "$OUT/$rep/x$f.json" || code=$?
		((code <= 1)) || { echo "$rep x$f: compare failed with exit $code" >&2; exit 1; }
	done
}

if [[ -n $HELD ]]; then
	for ((i = 1; i <= REPS; i++)); do
		for h in $HELD; do
			rep=held$h-$i
			l0=$(load)
			t0=$(date +%s)
			code=0
			"$bin" ab --base "$name" --candidate-slow "$h%" "${workload[@]}" "${schedule[@]}" \
				--out "$OUT/$rep" --run-id "$rep" --threshold "$THRESHOLD" -f json -o "$OUT/$rep.json" 2>"$OUT/$rep.log" >/dev/null || code=$?
			((code <= 1)) || { cat "$OUT/$rep.log" >&2; echo "$rep: ab failed with exit $code" >&2; exit 1; }
			echo "$rep: $(($(date +%s) - t0))s, load $l0 (at the start), $(load) (at the end); $(grep -o 'held back [0-9.]*% of its server.s time' "$OUT/$rep.log" || echo 'nothing held back')" >&2
		done
	done
	python3 bench/power_table.py held "$OUT" "$REPS" $HELD
	exit 0
fi

for ((i = 1; i <= REPS; i++)); do
	rep=aa-$i
	l0=$(load)
	t0=$(date +%s)
	if [[ $SINGLE == 1 ]]; then
		for side in a b; do
			"$bin" run -q "${server[@]}" "${workload[@]}" --time "$SINGLE_TIME" --out "$OUT/$rep" --run-id "$rep-$side" >/dev/null
		done
		mkdir -p "$OUT/$rep/base" "$OUT/$rep/cand"
		mv "$OUT/$rep/run=$rep-a" "$OUT/$rep/base/"
		mv "$OUT/$rep/run=$rep-b" "$OUT/$rep/cand/"
		base=$OUT/$rep/base cand=$OUT/$rep/cand
	else
		code=0
		"$bin" ab -q --base "$name" --candidate "$name" "${workload[@]}" "${schedule[@]}" \
			--out "$OUT/$rep" --run-id "$rep" --threshold "$THRESHOLD" -f json -o "$OUT/$rep.json" || code=$?
		((code <= 1)) || { echo "$rep: ab failed with exit $code" >&2; exit 1; }
		base=$(echo "$OUT/$rep"/ab=*/side=base) cand=$(echo "$OUT/$rep"/ab=*/side=candidate)
	fi
	echo "$rep: recorded in $(($(date +%s) - t0))s, load $l0 (at the start), $(load) (at the end)" >&2
	judge "$rep" "$base" "$cand"
done

python3 bench/power_table.py factors "$OUT" "$REPS" $FACTORS
