#!/usr/bin/env bash
# What a schema change, a purge and a slow node cost a Galera cluster under
# load, on a 3-node cluster sandbox. Run through "make demo-galera" (which
# builds bin/joinbench first).
#
#   DEMO_SANDBOX=name   cluster sandbox to use (default demo-galera); reused if running
#   DEMO_KEEP=1         leave the cluster running at the end
#   DEMO_ROWS=n         rows of the table the ALTER and the DELETEs work on (default 400000)
#   DEMO_METHODS=0      skip the experiments: TOI against RSU and pt-online-schema-change,
#                       one DELETE against its chunks, node3 20% slower on disk
#   DEMO_OUT=dir        results folder (default results-galera)
set -euo pipefail
cd "$(dirname "$0")/.."

JB=${JB:-bin/joinbench}
NAME=${DEMO_SANDBOX:-demo-galera}
OUT=${DEMO_OUT:-results-galera}
ROWS=${DEMO_ROWS:-400000}
QUARTER=$((ROWS / 4))

step() { printf '\n== %s\n' "$*" >&2; }

install() {
	if [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null; then
		echo "installing $*" >&2
		export DEBIAN_FRONTEND=noninteractive
		apt-get update -qq
		apt-get install -y -qq --no-install-recommends "$@" >/dev/null
	else
		echo "missing: sudo apt-get install $*" >&2
		return 1
	fi
}

step "packages"
need=()
command -v mariadbd >/dev/null 2>&1 || [[ -x /usr/sbin/mariadbd ]] || need+=(mariadb-server)
[[ -e /usr/lib/galera/libgalera_smm.so ]] || need+=(galera-4)
command -v mariadb-backup >/dev/null 2>&1 || need+=(mariadb-backup)
command -v socat >/dev/null 2>&1 || need+=(socat)
if ((${#need[@]})); then install "${need[@]}" || exit 2; fi
if ! command -v pt-online-schema-change >/dev/null 2>&1; then
	install percona-toolkit || echo "pt-online-schema-change is left out of ddl-methods" >&2
fi

step "cluster $NAME (3 nodes)"
mapfile -t dsns < <("$JB" sandbox start --name "$NAME" --galera 3 --buffer-pool-size 256M)
if [[ -z "${DEMO_KEEP:-}" ]]; then
	trap 'step "stop cluster $NAME"; "$JB" sandbox stop --name "$NAME"' EXIT
fi
"$JB" sandbox status --name "$NAME"
# The mariadb client, for the table the actions work on: sql N STATEMENTS
# runs them on node N.
sql() {
	[[ ${dsns[$1 - 1]} =~ tcp\(([^:]+):([0-9]+)\)/(.*)$ ]] || { echo "unexpected DSN ${dsns[$1 - 1]}" >&2; exit 1; }
	mariadb -u root -h "${BASH_REMATCH[1]}" -P "${BASH_REMATCH[2]}" "${BASH_REMATCH[3]}" -N -e "$2"
}
refill() {
	sql 1 "DROP TABLE IF EXISTS big; CREATE TABLE big (id INT PRIMARY KEY, grp INT NOT NULL, pad CHAR(100) NOT NULL);
	     INSERT INTO big SELECT seq, seq % 100, REPEAT('x', 100) FROM seq_1_to_$ROWS"
	# Wait until the other nodes have applied it: the run would otherwise
	# start in the stall of that apply.
	sql 2 "SET SESSION wsrep_sync_wait = 1; SELECT COUNT(*) FROM big" >/dev/null
	sql 3 "SET SESSION wsrep_sync_wait = 1; SELECT COUNT(*) FROM big" >/dev/null
}

step "prepare: the workload's tables, and big ($ROWS rows) for the ALTER and the DELETEs"
"$JB" prepare --sandbox "$NAME" --tables 1 --table-size 20000 --recreate -q
refill

# A mixed read/write workload on every node, 2 threads per node: each
# event one join and three writes (a stall shows as a stretch without
# writes).
# The first seconds of a run (connections, cold caches, the first
# conflicts) are not measured: the actions' offsets count from after them.
workload=(--sandbox "$NAME" --table-size 20000 -s simple_inner_pk -s index_updates=2 -s delete_inserts --threads 6 --warmup 5s --out "$OUT")
mkdir -p "$OUT"
stamp=$(date +%Y%m%d-%H%M%S)

step "run: TOI ALTER at 5s, one large DELETE at 20s, its chunked twin at 45s, node3 slow (LOCK TABLES held 5s) at 70s"
"$JB" run "${workload[@]}" --time 80s --run-id "$stamp-demo" \
	--action "5s@node2: sql: ALTER TABLE big ENGINE=InnoDB" \
	--action "20s@node1: sql: DELETE FROM big WHERE id <= $QUARTER" \
	--action "45s@node1: chunked 5000: DELETE FROM big WHERE id > $QUARTER AND id <= $((2 * QUARTER))" \
	--action "70s@node3: lock 5s: main1"
run="$OUT/run=$stamp-demo"
"$JB" report "$run" --format html -o "$run/report.html"

if [[ "${DEMO_METHODS:-1}" != 0 ]]; then
	# Each lesson prepares its own tables, gives every action a quiet
	# window before it and writes its page (markdown and HTML) into $OUT.
	lesson() { # lesson flags...
		step "experiment $*"
		"$JB" experiment "$@" --sandbox "$NAME" --out "$OUT" -q
	}
	lesson ddl-methods --rows "$ROWS"
	lesson chunked-dml --rows "$ROWS"
	lesson slow-node --percent 20 --resource io --node node3
fi

step "done"
echo "Parquet results: $OUT/run=$stamp-*" >&2
echo "HTML report:     $run/report.html" >&2
if [[ "${DEMO_METHODS:-1}" != 0 ]]; then
	echo "Lessons:         $OUT/ddl-methods.html $OUT/chunked-dml.html $OUT/slow-node.html" >&2
fi
