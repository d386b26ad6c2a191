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

have_server() {
	local b
	for b in mariadbd mysqld; do
		command -v "$b" >/dev/null 2>&1 && return 0
		[[ -x /usr/sbin/$b || -x /usr/local/sbin/$b ]] && return 0
	done
	return 1
}

step "server binary"
if ! have_server; then
	if [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null; then
		echo "no mariadbd or mysqld found: installing mariadb-server" >&2
		export DEBIAN_FRONTEND=noninteractive
		apt-get update -qq
		apt-get install -y -qq --no-install-recommends mariadb-server >/dev/null
	else
		echo "no mariadbd or mysqld found: install one with: sudo apt-get install mariadb-server" >&2
		exit 2
	fi
fi

# Galera cluster sandboxes (sandbox start --galera N) need the Galera
# library, and mariadb-backup and socat for state transfers.
galera=()
[[ -e /usr/lib/galera/libgalera_smm.so ]] || galera+=(galera-4)
command -v mariadb-backup >/dev/null 2>&1 || galera+=(mariadb-backup)
command -v socat >/dev/null 2>&1 || galera+=(socat)
if ((${#galera[@]})); then
	if [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null; then
		echo "installing ${galera[*]} for Galera cluster sandboxes" >&2
		export DEBIAN_FRONTEND=noninteractive
		apt-get update -qq
		apt-get install -y -qq --no-install-recommends "${galera[@]}" >/dev/null
	else
		echo "for Galera cluster sandboxes: sudo apt-get install ${galera[*]}" >&2
	fi
fi

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
"$JB" report "$run" --format html --out "$run/report.html"

step "done"
echo "Parquet results: $run" >&2
echo "HTML report:     $run/report.html" >&2
