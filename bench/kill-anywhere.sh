#!/usr/bin/env bash
# Kill joinbench anywhere: SIGKILL at a random moment during each fault
# (slow io, slow cpu, pt-online-schema-change, crash of one node, crash
# of all) and each lesson (slow-node, hot-vs-uniform with a smaller buffer
# pool), KILLS (20) times in all, round-robin; after each kill the next
# command (a short joinbench run on the sandbox, which undoes what the
# killed one left) runs, and the cluster is checked to be as it was
# before: every node's settings (innodb_flush_log_at_trx_commit,
# innodb_buffer_pool_size), no server in a joinbench cgroup (and no such
# group for the servers' pids), the triggers and tables of the database,
# one server process per node, every node running and Synced.
#
#   SANDBOX (ka), SANDBOX_DIR (the default): a 3-node Galera cluster
#   sandbox, started when it is not running and reused across the kills
#   (stopped at the end only when this script started it).
#   KILLS (20), SEED (random): how many kills, and the seed of the moments.
#   JOINBENCH (bin/joinbench): the binary under test.
#
# It prints one line per kill (what, when, the next command's exit code,
# what differs) and a count at the end; it exits 1 when any check failed.
set -uo pipefail
cd "$(dirname "$0")/.."
J=${JOINBENCH:-bin/joinbench}
SANDBOX=${SANDBOX:-ka}
KILLS=${KILLS:-20}
SEED=${SEED:-$RANDOM}
RANDOM=$SEED
export JOINBENCH_SANDBOX_DIR=${SANDBOX_DIR:-${JOINBENCH_SANDBOX_DIR:-}}
SIZE=2000 # rows of main1: tiny, so that every step is quick
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT

started=0
if ! "$J" sandbox status --name "$SANDBOX" >/dev/null 2>&1; then
	echo "starting cluster $SANDBOX" >&2
	"$J" sandbox start --name "$SANDBOX" --galera 3 --buffer-pool-size 128M -q >/dev/null || exit 1
	started=1
fi
dir=$("$J" sandbox status --name "$SANDBOX" -f json | python3 -c 'import json,sys; print(json.load(sys.stdin)["dir"])')

sock() { echo "$dir/$1/mysqld.sock"; }
q() { mariadb -uroot -S "$(sock "$1")" -N -B -e "$2" 2>/dev/null; }

# The tables every fault and lesson uses, made once: main1 as the lessons
# load it, big for pt-online-schema-change.
if [ -z "$(q node1 "SHOW TABLES FROM joinbench LIKE 'main1'")" ]; then
	"$J" prepare --sandbox "$SANDBOX" --tables 1 --table-name main --table-size $SIZE -q >/dev/null || exit 1
fi
q node1 "USE joinbench; CREATE TABLE IF NOT EXISTS joinbench.big (id INT PRIMARY KEY, g INT, pad VARCHAR(200)) ENGINE=InnoDB;
INSERT IGNORE INTO joinbench.big SELECT seq, seq % 100, REPEAT('x', 100) FROM seq_1_to_100000;"

# state prints what must be the same after every kill.
state() {
	local n pid
	for n in node1 node2 node3; do
		echo "$n settings: $(q $n 'SELECT @@innodb_flush_log_at_trx_commit, @@innodb_buffer_pool_size' | tr '\t' ' ')"
		echo "$n state: $(q $n "SELECT VARIABLE_VALUE FROM information_schema.GLOBAL_STATUS WHERE VARIABLE_NAME = 'WSREP_LOCAL_STATE_COMMENT'")"
		pid=$(cat "$dir/$n/mysqld.pid" 2>/dev/null)
		if [ -n "$pid" ] && grep -q joinbench- "/proc/$pid/cgroup" 2>/dev/null; then
			echo "$n in a cgroup: $(grep joinbench- "/proc/$pid/cgroup" | tr '\n' ' ')"
		fi
		if [ -n "$pid" ] && ls -d /sys/fs/cgroup/*/joinbench-slow-"$pid" /sys/fs/cgroup/*/*/joinbench-slow-"$pid" >/dev/null 2>&1; then
			echo "$n: a cgroup folder joinbench-slow-$pid is left"
		fi
		echo "$n processes: $(pgrep -fc -- "--datadir=$dir/$n/data")"
	done
	echo "triggers: $(q node1 "SELECT GROUP_CONCAT(trigger_name ORDER BY trigger_name) FROM information_schema.triggers WHERE trigger_schema = 'joinbench'")"
	echo "tables: $(q node1 "SELECT GROUP_CONCAT(table_name ORDER BY table_name) FROM information_schema.tables WHERE table_schema = 'joinbench'")"
	echo "ledger: $(ls "$dir/ledger" 2>/dev/null | wc -l)"
}

before=$(state)
echo "$before" >&2

run=("$J" run --sandbox "$SANDBOX" --tables 1 --table-name main --table-size $SIZE --threads 3 -s point_update=1 -s point_select=1 --out "$OUT" -q)
ptosc="pt-online-schema-change --alter ENGINE=InnoDB h={host},P={port},u={user},D={database},t=big --execute --no-check-alter --recursion-method=none --chunk-size 1000 --sleep 0.05 --max-load Threads_running=1000 --critical-load Threads_running=1000"
ptosc=${ptosc// /\~}
lesson=("$J" experiment --sandbox "$SANDBOX" --table-size $SIZE --threads 3 --window 3s --warmup 1s --repetitions 1 --out "$OUT" -q)
# name | longest moment to kill at (s) | command
faults=(
	"slow-io|12|${run[*]} --time 30s --action 1s@node3:~slow~50%~io~for~30s"
	"slow-cpu|12|${run[*]} --time 30s --action 1s@node2:~slow~50%~cpu~for~30s"
	"pt-osc|10|${run[*]} --time 30s --action 1s@node2:~exec:~$ptosc"
	"crash-node|25|${run[*]} --time 40s --action 2s@node3:~crash"
	"crash-all|35|${run[*]} --time 50s --action 2s@all:~crash"
	"lesson-slow-node|15|${lesson[*]} slow-node --percent 50 --resource io --node node3"
	"lesson-hot-vs-uniform|10|${lesson[*]} hot-vs-uniform --write-percent 10 --buffer-pool-size 64M"
)
command -v pt-online-schema-change >/dev/null || echo "pt-online-schema-change is not installed: the pt-osc fault runs a command that fails at once" >&2

ok=0 bad=0
for k in $(seq 1 "$KILLS"); do
	f=${faults[$(((k - 1) % ${#faults[@]}))]}
	name=${f%%|*} rest=${f#*|}
	longest=${rest%%|*} cmd=${rest#*|}
	# The action specs are written with ~ for spaces inside one argument.
	read -r -a argv <<<"$cmd"
	for i in "${!argv[@]}"; do argv[i]=${argv[i]//\~/ }; done
	at=$(awk -v r=$RANDOM -v l="$longest" 'BEGIN { printf "%.1f", 0.5 + (l - 0.5) * r / 32767 }')
	"${argv[@]}" >"$OUT/killed.log" 2>&1 &
	pid=$!
	sleep "$at"
	kill -9 $pid 2>/dev/null
	wait $pid 2>/dev/null
	"${run[@]}" --time 2s >"$OUT/next.log" 2>&1
	code=$?
	after=$(state)
	if [ "$after" = "$before" ] && [ $code -eq 0 ]; then
		ok=$((ok + 1))
		echo "kill $k: $name at ${at}s; next command exit $code; as before" >&2
	else
		bad=$((bad + 1))
		echo "kill $k: $name at ${at}s; next command exit $code; DIFFERS:" >&2
		diff <(echo "$before") <(echo "$after") >&2
		tail -5 "$OUT/next.log" >&2
		# Put it back for the next kill, as a user would.
		"$J" sandbox repair --name "$SANDBOX" >&2
		before=$(state)
	fi
	grep -h "left by a joinbench that was killed" "$OUT/next.log" | sed 's/^/    /' >&2
done
echo "kill-anywhere (seed $SEED): $ok of $KILLS kills left every server as it was after the next command; $bad did not"
if [ $started -eq 1 ]; then
	"$J" sandbox stop --name "$SANDBOX" -q
fi
[ $bad -eq 0 ]
