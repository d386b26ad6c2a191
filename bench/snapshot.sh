#!/usr/bin/env bash
# Preparing 4 main + 5 level tables of 100,000 rows, three ways, on the same
# server:
#   1. joinbench prepare --snapshot restoring a snapshot saved beforehand
#      (transportable tablespaces, then ANALYZE TABLE; docs/snapshots.md);
#   2. joinbench prepare loading the rows afresh (what bench/prepare.sh
#      measures);
#   3. the reference: sysbench oltp_read_write prepare of 9 tables of
#      100,000 rows (sysbench's own tables: its join workload's Lua scripts
#      are not available here, and sbtest rows are about a third of the
#      size of the workload's, which favours sysbench).
# All three with THREADS (2) connections, each into empty tables. ROUNDS
# (3) rounds run them in turn, so that all see the same machine; prints
# every time, the median and spread of each, and the ratios of the medians
# (target: sysbench / restore >= 10). Round 1 also checks that the
# restored tables give the same CHECKSUM TABLE as the fresh load.
#
# Server: HOST, PORT, USER, PASSWORD name yours (its data directory must be
# on this machine); without PORT a throwaway sandbox is started
# (bench/lib.sh). DB (default jbbench_snapshot) is created, and
# DB_sysbench for sysbench. TABLES and SIZE override the shape.
set -euo pipefail

DB=${DB:-jbbench_snapshot}
TABLES=${TABLES:-4}
SIZE=${SIZE:-100000}
THREADS=${THREADS:-2}
ROUNDS=${ROUNDS:-3}

. "$(dirname "$0")/lib.sh"
dsn=$(bench_dsn)
sbdb=${DB}_sysbench
mariadb -h"$HOST" -P"$PORT" -u"$USER" -e "CREATE DATABASE IF NOT EXISTS \`$sbdb\`"
client=(mariadb -h"$HOST" -P"$PORT" -u"$USER" "$DB")

snapdir=$work/snapshots
jb=(--dsn "$dsn" --tables "$TABLES")
prep=(prepare "${jb[@]}" --table-size "$SIZE" --threads "$THREADS" -q)
sb=(sysbench oltp_read_write --db-driver=mysql --mysql-host="$HOST" --mysql-port="$PORT"
	--mysql-user="$USER" --mysql-password="$PASSWORD" --mysql-db="$sbdb"
	--tables=$((TABLES + 5)) --table-size="$SIZE" --threads="$THREADS")
tables=$(for i in $(seq 1 "$TABLES"); do printf 'main%d,' "$i"; done; echo level1,level2,level3,level4,level5)
rows=$(((TABLES + 5) * SIZE))
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.2f", b - a }'; }
checksums() { "${client[@]}" -N -e "CHECKSUM TABLE $tables"; }

echo "server: $("${client[@]}" -N -e 'SELECT VERSION()'), $TABLES main + 5 level tables of $SIZE rows, $THREADS threads, $ROUNDS rounds" >&2
"$bin" cleanup "${jb[@]}" -q
t0=$(now)
"$bin" "${prep[@]}" --snapshot --snapshot-dir "$snapdir"
echo "first prepare --snapshot (load, then save): $(since "$t0")s" >&2
fresh_sums=$(checksums)
"$bin" snapshot list --snapshot-dir "$snapdir" >&2

for round in $(seq 1 "$ROUNDS"); do
	"$bin" cleanup "${jb[@]}" -q
	t0=$(now)
	"$bin" "${prep[@]}" --snapshot --snapshot-dir "$snapdir"
	restore=$(since "$t0")
	if [ "$round" = 1 ] && [ "$(checksums)" != "$fresh_sums" ]; then
		echo "the restored tables differ from the fresh load:" >&2
		echo "$fresh_sums" >&2
		checksums >&2
		exit 1
	fi

	"$bin" cleanup "${jb[@]}" -q
	t0=$(now)
	"$bin" "${prep[@]}"
	fresh=$(since "$t0")

	"${sb[@]}" cleanup >/dev/null
	t0=$(now)
	"${sb[@]}" prepare >/dev/null
	sysb=$(since "$t0")
	"${sb[@]}" cleanup >/dev/null

	echo "round $round: restore ${restore}s, joinbench prepare ${fresh}s, sysbench prepare ${sysb}s" >&2
	echo "$restore $fresh $sysb" >>"$work/rounds.txt"
done
"$bin" cleanup "${jb[@]}" -q

python3 - "$work/rounds.txt" "$rows" <<'PY'
import statistics, sys
rounds = [[float(x) for x in line.split()] for line in open(sys.argv[1])]
rows = int(sys.argv[2])
names = ["restore from snapshot", "joinbench prepare", "sysbench prepare"]
med = []
for i, name in enumerate(names):
    v = [r[i] for r in rounds]
    m = statistics.median(v)
    med.append(m)
    print(f"{name:22} median {m:7.2f}s ({rows / m:9.0f} rows/s), min {min(v):.2f}s, max {max(v):.2f}s over {len(v)}")
print(f"sysbench prepare / restore  = {med[2] / med[0]:.1f}x (target >= 10)")
print(f"joinbench prepare / restore = {med[1] / med[0]:.1f}x")
print("per round, sysbench / restore: " + ", ".join(f"{r[2] / r[0]:.1f}x" for r in rounds))
PY
