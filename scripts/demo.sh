#!/usr/bin/env bash
# End-to-end demo on a named sandbox server: each stage of the workflow is
# one step below. Run through "make demo" (which builds bin/joinbench first).
#
#   DEMO_SANDBOX=name   sandbox to use (default demo); reused if running
#   DEMO_KEEP=1         leave the sandbox running at the end
#   DEMO_ROWS=n         rows per table (default 10000)
#   DEMO_TIME=d         how long to replay (default 20s)
#   DEMO_OUT=dir        results folder (default results)
set -euo pipefail
cd "$(dirname "$0")/.."

JB=${JB:-bin/joinbench}
NAME=${DEMO_SANDBOX:-demo}
OUT=${DEMO_OUT:-results}

step() { printf '\n== %s\n' "$*" >&2; }

step "server binary"
# A server for the sandbox, and what Galera cluster sandboxes need.
scripts/install-deps.sh server galera

step "sandbox $NAME"
DSN=$("$JB" sandbox start --name "$NAME" --buffer-pool-size 512M)
if [[ -z "${DEMO_KEEP:-}" ]]; then
	trap 'step "stop sandbox $NAME"; "$JB" sandbox stop --name "$NAME"' EXIT
fi
echo "DSN: $DSN" >&2
"$JB" sandbox status --name "$NAME"

step "scenarios"
"$JB" list

step "prepare a small dataset"
"$JB" prepare --sandbox "$NAME" --tables 1 --table-size "${DEMO_ROWS:-10000}" --recreate

step "warm up"
"$JB" warmup --sandbox "$NAME"

step "lint the corpus against the prepared schema"
"$JB" lint --dsn "$DSN"

step "replay every scenario for ${DEMO_TIME:-20s}"
"$JB" run --sandbox "$NAME" --all --threads 2 --time "${DEMO_TIME:-20s}" --out "$OUT" --checksum

run=$(ls -d "$OUT"/run=* | sort | tail -n 1)
step "report of $run"
"$JB" report "$run" --format html -o "$run/report.html"

step "done"
echo "Parquet results: $run" >&2
echo "HTML report:     $run/report.html" >&2
