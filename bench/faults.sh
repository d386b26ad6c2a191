#!/usr/bin/env bash
# What a run does under faults, measured on a throwaway sandbox of its own
# (the server is signalled, so never a server of yours):
#   server killed     SIGKILL of mariadbd at 3 s, started again 2 s later
#   server hung       SIGSTOP of mariadbd at 3 s (with and without
#                     --query-timeout 2s, and Ctrl-C 1 s after the stop)
#   network cut       one worker connection, through a socat proxy, stops
#                     answering at 3 s (its socat process is stopped)
#   disk full         the results folder, a 16 MB tmpfs, is filled up at 3 s
#   client killed     SIGKILL of joinbench at 5 s and at 60 s
#   Ctrl-C twice      SIGINT 0.5 s after the server hung at 3 s, and again
#                     0.5 s later
# For each: seconds from the fault to the end of the process, seconds past
# --time, executions the server ran (Com_stmt_execute; n/a when it was
# restarted), executions the run counted (its summary; none when killed)
# and executions its files hold (joinbench report). Then the peak RSS of
# runs of 64 and 2,000 threads.
#
# The workload is a point select by primary key
# (bench/corpus/point_select_sbtest.sql, sysbench's sbtest1), one per event,
# no transaction, EXPLAIN off (so that the server's count is the run's).
# THREADS (4) and TIME (10, seconds of the runs with a fault at 3 s) set
# the load; FAULTS (all) names the ones to measure, e.g. FAULTS="disk-full
# rss". Needs root (tmpfs, signals), socat, sysbench, mariadbd.
set -euo pipefail

unset PORT # always a sandbox of this script's own
DB=jbbench_faults
THREADS=${THREADS:-4}
TIME=${TIME:-10}
BUFFER_POOL=${BUFFER_POOL:-256M}
SIZE=10000

. "$(dirname "$0")/lib.sh"
dsn=$(bench_dsn)
sbdir=$work/sandboxes
pidfile=$sbdir/bench/mysqld.pid
socat_pid=""
faults_cleanup() {
	kill -CONT "$(cat "$pidfile" 2>/dev/null)" 2>/dev/null || true
	umount "$work/full" 2>/dev/null || true
	if [[ -n $socat_pid ]]; then kill "$socat_pid" 2>/dev/null || true; fi
	bench_cleanup
}
trap faults_cleanup EXIT

sb=(sysbench oltp_point_select --db-driver=mysql --mysql-host="$HOST" --mysql-port="$PORT"
	--mysql-user="$USER" --mysql-password="$PASSWORD" --mysql-db="$DB" --tables=1 --table-size="$SIZE")
"${sb[@]}" prepare >/dev/null
mariadb -h"$HOST" -P"$PORT" -u"$USER" -e "SET GLOBAL max_connections = 2200"

now() { date +%s.%N; }
sub() { python3 -c "import sys; print(f'{float(sys.argv[1]) - float(sys.argv[2]):.1f}')" "$1" "$2"; }
server_count() {
	mariadb -h"$HOST" -P"$PORT" -u"$USER" -N -e "SHOW GLOBAL STATUS LIKE 'Com_stmt_execute'" | awk '{ print $2 }'
}
# file_rows DIR: executions the run's files hold, as report reads them.
file_rows() {
	"$bin" report --format json "$1" 2>/dev/null |
		python3 -c 'import json, sys; print(json.load(sys.stdin)["runs"][0]["total"]["executions"])' 2>/dev/null || echo 0
}
# counted FILE: executions in a run's --json summary, "-" without one.
counted() {
	python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["executions"])' "$1" 2>/dev/null || echo -
}
# start_run NAME DSN OUT ARGS...: a run in the background ($run_pid), its
# summary in $work/NAME.json, its stderr in $work/NAME.err.
start_run() {
	local name=$1 d=$2 out=$3
	shift 3
	"$bin" run --dsn "$d" --no-builtin --corpus bench/corpus -s point_select_sbtest --skip-trx \
		--threads "$THREADS" --explain off --out "$out" --run-id "$name" --json "$@" \
		>"$work/$name.json" 2>"$work/$name.err" &
	run_pid=$!
	run_start=$(now)
	planned=-
	local prev=""
	for a in "$@"; do
		if [[ $prev == --time ]]; then planned=${a%s}; fi
		prev=$a
	done
}
# wait_run: waits for the run ($run_end, $run_code).
wait_run() {
	run_code=0
	wait "$run_pid" || run_code=$?
	run_end=$(now)
}
# line NAME OUT FAULT_TIME SERVER_BEFORE: the run's line of the table
# (SERVER_BEFORE "-": the server's count is lost).
line() {
	local name=$1 out=$2 fault=$3 before=$4 ran c f kept
	if [[ $before == - ]]; then ran=n/a; else ran=$(($(server_count) - before)); fi
	c=$(counted "$work/$name.json")
	f=$(file_rows "$out/run=$name")
	# kept: of what the run counted, or when it could not count (killed),
	# of what the server ran
	kept=$(python3 -c 'import sys; n = next((int(x) for x in sys.argv[1:3] if x.isdigit() and int(x)), 0); f = int(sys.argv[3]); print(f"{100 * f / n:.1f}%" if n else "-")' "$c" "$ran" "$f")
	printf "%-22s %6s %8s %8s %9s %9s %7s %5s\n" "$name" "$(sub "$run_end" "$fault")" \
		"$(if [[ $run_code == 0 ]]; then sub "$run_end" "$(python3 -c "print($run_start + $planned)")"; else echo -; fi)" \
		"$ran" "$c" "$f" "$kept" "$run_code"
}
header() {
	printf "%-22s %6s %8s %8s %9s %9s %7s %5s\n" fault "end-s" "past-s" "server" "counted" "in-files" "kept" "exit"
}

FAULTS=${FAULTS:-server-killed server-hung network-cut disk-full client-killed ctrl-c-twice rss}
want() { [[ " $FAULTS " == *" $1 "* ]]; }

header
out=$work/results

# server killed, restarted 2 s later: the run reconnects and goes on
if want server-killed; then
	start_run server-killed "$dsn" "$out" --time "${TIME}s"
	sleep 3
	kill -9 "$(cat "$pidfile")"
	fault=$(now)
	sleep 2
	"$bin" sandbox start -q --name bench --sandbox-dir "$sbdir" --buffer-pool-size "$BUFFER_POOL" >/dev/null
	wait_run
	line server-killed "$out" "$fault" -
	mariadb -h"$HOST" -P"$PORT" -u"$USER" -e "SET GLOBAL max_connections = 2200"
fi

# server hung: SIGSTOP at 3 s, continued once the run ended
hung() {
	local name=$1
	shift
	local before
	before=$(server_count)
	start_run "$name" "$dsn" "$out" --time "${TIME}s" "$@"
	sleep 3
	kill -STOP "$(cat "$pidfile")"
	fault=$(now)
	if [[ $name == *ctrl-c ]]; then
		sleep 1
		kill -INT "$run_pid"
	fi
	wait_run
	kill -CONT "$(cat "$pidfile")"
	line "$name" "$out" "$fault" "$before"
}
if want server-hung; then
	hung server-hung-qt --query-timeout 2s
	hung server-hung
	hung server-hung-ctrl-c
fi

# network cut: one worker connection stops answering; the server is fine
if want network-cut; then
	proxy_port=$((PORT + 1000))
	socat TCP-LISTEN:$proxy_port,reuseaddr,fork TCP:127.0.0.1:$PORT &
	socat_pid=$!
	sleep 0.5
	before=$(server_count)
	start_run network-cut "${dsn/:$PORT)/:$proxy_port)}" "$out" --time "${TIME}s" --query-timeout 2s
	sleep 3
	cut=$(pgrep -P "$socat_pid" | sort -n | tail -1) # the newest: a worker's
	kill -STOP "$cut"
	fault=$(now)
	wait_run
	line network-cut "$out" "$fault" "$before"
	kill -CONT "$cut" || true
	kill "$socat_pid" || true
	socat_pid=""
fi

# disk full: another process fills the results' file system at 3 s
if want disk-full; then
	full=$work/full
	mkdir -p "$full"
	mount -t tmpfs -o size=16m tmpfs "$full"
	before=$(server_count)
	start_run disk-full "$dsn" "$full" --time 60s
	sleep 3
	dd if=/dev/zero of="$full/filler" bs=64k 2>/dev/null || true
	fault=$(now)
	wait_run
	rm -f "$full/filler"
	line disk-full "$full" "$fault" "$before"
	grep -m1 "^joinbench: write" "$work/disk-full.err" >&2 || true
	umount "$full"
fi

# client killed at 5 s and at 60 s: the share of executions readable
if want client-killed; then
	for at in 5 60; do
		before=$(server_count)
		start_run "client-killed-${at}s" "$dsn" "$out" --time 300s
		sleep "$at"
		kill -9 "$run_pid"
		fault=$(now)
		wait_run
		line "client-killed-${at}s" "$out" "$fault" "$before"
	done
fi

# Ctrl-C twice, the run waiting on a hung server: the second exits at once
if want ctrl-c-twice; then
	before=$(server_count)
	start_run ctrl-c-twice "$dsn" "$out" --time 60s
	sleep 3
	kill -STOP "$(cat "$pidfile")"
	sleep 0.5
	kill -INT "$run_pid"
	sleep 0.5
	kill -INT "$run_pid" 2>/dev/null || true
	fault=$(now)
	wait_run
	kill -CONT "$(cat "$pidfile")"
	line ctrl-c-twice "$out" "$fault" "$before"
fi

# peak RSS by threads
if want rss; then
	for threads in 64 2000; do
		/usr/bin/time -v "$bin" run --dsn "$dsn" --no-builtin --corpus bench/corpus -s point_select_sbtest --skip-trx \
			--threads "$threads" --time 10s --out "$out" --run-id "rss-$threads" --report-interval 0 --json \
			>"$work/rss-$threads.json" 2>"$work/rss-$threads.err" || { tail -3 "$work/rss-$threads.err" >&2; continue; }
		rss=$(awk -F: '/Maximum resident/ { gsub(/ /, "", $2); print $2 }' "$work/rss-$threads.err")
		echo "threads $threads: peak RSS $((rss / 1024)) MB, $(counted "$work/rss-$threads.json") executions"
	done
fi
"${sb[@]}" cleanup >/dev/null
