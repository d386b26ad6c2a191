#!/usr/bin/env bash
# `joinbench report` and `joinbench compare` against DuckDB computing the
# same figures (count, errors, mean, p50, p95, p99, max latency per
# scenario) from the same Parquet files: wall time, CPU time and peak RSS
# of each, alternated REPS (5) times, and their ratios (medians with the
# range; CPU time, which /usr/bin/time gives to 10 ms, moves less than wall
# time when other processes take the cores). The target is a
# time ratio of at most 2 with memory bounded by the number of scenarios.
#
# Runs of ROWS (1000000, then 10000000) executions over SCENARIOS (40)
# scenarios are generated once with joinbench's own writer under DIR
# (default $TMPDIR/jb-duckdb-bench) and kept: delete it to start afresh.
# WHAT is report,compare (either alone works); report is timed twice: as
# JSON, which also reads back the slowest executions, and as text, which
# computes just the figures DuckDB does. The DuckDB side is the Go
# driver in bench/duckdb, a module of its own so that the main module links
# no DuckDB; its first build compiles DuckDB (minutes).
set -euo pipefail
cd "$(dirname "$0")/.."

ROWS=${ROWS:-"1000000 10000000"}
REPS=${REPS:-5}
SCENARIOS=${SCENARIOS:-40}
WHAT=${WHAT:-report,compare}
DIR=${DIR:-${TMPDIR:-/tmp}/jb-duckdb-bench}

make -s build
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
(cd bench/duckdb && go build -o "$bin/duckdb-bench" .)
for rows in $ROWS; do
	"$bin/duckdb-bench" -joinbench "$PWD/bin/joinbench" -rows "$rows" -scenarios "$SCENARIOS" \
		-reps "$REPS" -what "$WHAT" -dir "$DIR"
done
