#!/usr/bin/env bash
# Loads 4 main + 5 level tables of 100,000 rows with 2 threads and prints
# rows/s for:
#   1. sysbench's join workload (skipped: its Lua scripts do not ship with
#      sysbench and are not available here);
#   2. joinbench prepare;
#   3. the raw ceiling: the same rows, written to files beforehand, loaded
#      with LOAD DATA LOCAL INFILE into the same tables by the same number of
#      parallel sessions, building the indexes the same way (see INDEXES);
# and the joinbench/ceiling ratio. Both include the final ANALYZE TABLE.
#
# The machine may be shared and noisy: RUNS rounds (default 3) each run
# joinbench then the ceiling, back to back, and the medians are compared.
# On a sandbox the server's CPU seconds are printed too: they vary much less
# than wall time when other processes compete for the cores.
#
# INDEXES=deferred (default, what prepare does): tables are created with
#   their primary key only; each session loads a table, then adds its
#   secondary indexes with one ALTER TABLE, then takes the next table.
# INDEXES=during-load: tables are created with every index
#   (prepare --no-defer-indexes).
#
# Uses $DSN (a Go MySQL DSN with a database, e.g.
# 'root@tcp(127.0.0.1:3306)/jbbench') or else starts a sandbox server, with
# SERVER_ARGS (space-separated server options) added to its defaults.
# TABLES, SIZE and THREADS override the sizes; JB_ARGS are added to
# joinbench prepare's flags (e.g. JB_ARGS="--chunk-size 100000").
set -euo pipefail
cd "$(dirname "$0")/.."

TABLES=${TABLES:-4}
SIZE=${SIZE:-100000}
THREADS=${THREADS:-2}
RUNS=${RUNS:-3}
INDEXES=${INDEXES:-deferred}
case "$INDEXES" in
deferred) jb_index_flag=--defer-indexes ;;
during-load) jb_index_flag=--no-defer-indexes ;;
*) echo "INDEXES must be deferred or during-load" >&2; exit 2 ;;
esac
work=$(mktemp -d)
bin=$work/joinbench
go build -o "$bin" ./cmd/joinbench

sandbox=""
cleanup() {
	if [ -n "$sandbox" ]; then "$bin" sandbox stop -n "$sandbox" >/dev/null 2>&1 || true; fi
	rm -rf "$work"
}
trap cleanup EXIT
server_pid=""
if [ -z "${DSN:-}" ]; then
	sandbox=jbprepare$$
	args=()
	for a in ${SERVER_ARGS:-}; do args+=(--server-arg="$a"); done
	DSN=$("$bin" sandbox start -n "$sandbox" --buffer-pool-size 2G --database jbbench "${args[@]}" 2>/dev/null)
	server_pid=$("$bin" sandbox status -n "$sandbox" | awk '$1 == "pid" { print $2 }')
fi
user=$(sed -E 's/^([^:@]*).*/\1/' <<<"$DSN")
host=$(sed -nE 's/.*tcp\(([^:)]*):?([0-9]*)\).*/\1/p' <<<"$DSN")
port=$(sed -nE 's/.*tcp\(([^:)]*):([0-9]+)\).*/\2/p' <<<"$DSN")
db=$(sed -nE 's|.*\)/([^?]*).*|\1|p' <<<"$DSN")
pass=$(sed -nE 's/^[^:@]*:([^@]*)@.*/\1/p' <<<"$DSN")
client=(mariadb -u"$user" -h"${host:-127.0.0.1}" -P"${port:-3306}" --local-infile=1)
[ -n "$pass" ] && client+=(-p"$pass")
"${client[@]}" -e "CREATE DATABASE IF NOT EXISTS \`$db\`"
rows=$(( (TABLES + 5) * SIZE ))
common=(--dsn "$DSN" --tables "$TABLES" -q)
tables=$(for i in $(seq 1 "$TABLES"); do echo "main$i"; done; for i in 1 2 3 4 5; do echo "level$i"; done)
now() { date +%s.%N; }
rate() { awk -v r="$1" -v s="$2" 'BEGIN { printf "%.0f", r / s }'; }
# server CPU seconds so far (user + system), or 0 when the server is not ours
server_cpu() {
	if [ -n "$server_pid" ]; then
		awk '{ printf "%.2f", ($14 + $15) / 100 }' "/proc/$server_pid/stat"
	else
		echo 0
	fi
}
# CPU seconds of this script's finished child processes (the clients)
client_cpu() { awk '{ printf "%.2f", ($16 + $17) / 100 }' "/proc/$$/stat"; }
# cpu_delta SERVER0 SERVER1 CLIENT0 CLIENT1 prints the CPU used, and
# appends server+client CPU to the file $5 (only with a sandbox)
cpu_delta() {
	awk -v a="$3" -v b="$4" 'BEGIN { printf ", client cpu %5.2fs", b - a }'
	[ -n "$server_pid" ] || return 0
	awk -v a="$1" -v b="$2" 'BEGIN { printf ", server cpu %5.2fs", b - a }'
	awk -v a="$1" -v b="$2" -v c="$3" -v d="$4" 'BEGIN { print b - a + d - c }' >>"$5"
}
# rows and index count of every table, to check both loads built the same
table_shape() {
	for t in $tables; do
		"${client[@]}" -N "$db" -e "SELECT '$t', (SELECT COUNT(*) FROM \`$t\`),
			(SELECT COUNT(DISTINCT INDEX_NAME) FROM information_schema.STATISTICS
			 WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = '$t')"
	done
}
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

echo "server: $("${client[@]}" -N -e 'SELECT VERSION()'), $TABLES main + 5 level tables of $SIZE rows, $THREADS threads, indexes $INDEXES, $RUNS runs"
echo "1. sysbench join workload: skipped (its Lua scripts are not available)"

# The files for the ceiling, and the statements that recreate the
# secondary indexes, read from the tables prepare creates.
"$bin" prepare "${common[@]}" --table-size "$SIZE" --dump-csv "$work/tsv" >/dev/null
"$bin" cleanup "${common[@]}" >/dev/null
"$bin" prepare "${common[@]}" --table-size 1 --no-analyze >/dev/null
for t in $tables; do
	"${client[@]}" -N "$db" -e "
		SELECT CONCAT('ALTER TABLE \`', TABLE_NAME, '\` ', GROUP_CONCAT(CONCAT(
			'ADD ', IF(NON_UNIQUE = 0, 'UNIQUE ', ''), 'INDEX \`', INDEX_NAME, '\` (', cols, ')') SEPARATOR ', '))
		FROM (SELECT TABLE_NAME, INDEX_NAME, NON_UNIQUE,
				GROUP_CONCAT(CONCAT('\`', COLUMN_NAME, '\`') ORDER BY SEQ_IN_INDEX) AS cols
			FROM information_schema.STATISTICS
			WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = '$t' AND INDEX_NAME <> 'PRIMARY'
			GROUP BY TABLE_NAME, INDEX_NAME, NON_UNIQUE) AS s
		GROUP BY TABLE_NAME" >"$work/add-$t.sql"
	"${client[@]}" -N "$db" -e "
		SELECT CONCAT('ALTER TABLE \`', TABLE_NAME, '\` ', GROUP_CONCAT(DISTINCT CONCAT('DROP INDEX \`', INDEX_NAME, '\`') SEPARATOR ', '))
		FROM information_schema.STATISTICS
		WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = '$t' AND INDEX_NAME <> 'PRIMARY'
		GROUP BY TABLE_NAME" >"$work/drop-$t.sql"
done

# ceiling_session loads the tables it takes from the shared queue
# ($work/queue, one name a line, next line number in $work/next).
ceiling_session() {
	# Like prepare's load sessions. With deferred indexes unique_checks
	# stays 1: with unique_checks=0 and foreign_key_checks=0, MariaDB 10.6+
	# buffers and sorts every row loaded into an empty table (its bulk
	# insert path), which costs more than appending rows in primary key
	# order to a table with no secondary index. Into a fully indexed table
	# that path is the faster one, so during-load sets unique_checks=0.
	local set="SET SESSION time_zone='+00:00'; SET SESSION foreign_key_checks=0;"
	[ "$INDEXES" = during-load ] && set+=" SET SESSION unique_checks=0;"
	while :; do
		local n t
		n=$(flock "$work/next" sh -c 'n=$(cat "$1"); echo $((n + 1)) >"$1"; echo "$n"' _ "$work/next")
		t=$(sed -n "${n}p" "$work/queue")
		[ -n "$t" ] || break
		local sql="$set LOAD DATA LOCAL INFILE '$work/tsv/$t.tsv' INTO TABLE \`$t\` CHARACTER SET binary;"
		[ "$INDEXES" = deferred ] && sql+=" $(cat "$work/add-$t.sql");"
		"${client[@]}" "$db" -e "$sql"
	done
}

for run in $(seq 1 "$RUNS"); do
	"$bin" cleanup "${common[@]}" >/dev/null
	c0=$(server_cpu)
	k0=$(client_cpu)
	t0=$(now)
	"$bin" prepare "${common[@]}" --table-size "$SIZE" --threads "$THREADS" "$jb_index_flag" ${JB_ARGS:-}
	t1=$(now)
	c1=$(server_cpu)
	k1=$(client_cpu)
	secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')
	echo "$secs" >>"$work/jb.secs"
	printf '   run %d: joinbench %6.2fs = %6d rows/s%s\n' "$run" "$secs" "$(rate "$rows" "$secs")" "$(cpu_delta "$c0" "$c1" "$k0" "$k1" "$work/jb.cpu")"
	shape=$(table_shape)

	# The ceiling: empty tables of the same definition, minus the
	# secondary indexes when they are deferred.
	for t in $tables; do
		"${client[@]}" "$db" -e "TRUNCATE TABLE \`$t\`"
		if [ "$INDEXES" = deferred ]; then "${client[@]}" "$db" <"$work/drop-$t.sql"; fi
	done
	echo "$tables" >"$work/queue"
	echo 1 >"$work/next"
	c0=$(server_cpu)
	k0=$(client_cpu)
	t0=$(now)
	pids=()
	for w in $(seq 1 "$THREADS"); do
		ceiling_session &
		pids+=($!)
	done
	for p in "${pids[@]}"; do wait "$p"; done
	"${client[@]}" "$db" -e "ANALYZE TABLE $(tr '\n' ',' <<<"$tables" | sed 's/,$//')" >/dev/null
	t1=$(now)
	c1=$(server_cpu)
	k1=$(client_cpu)
	secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')
	echo "$secs" >>"$work/ceil.secs"
	printf '   run %d: ceiling   %6.2fs = %6d rows/s%s\n' "$run" "$secs" "$(rate "$rows" "$secs")" "$(cpu_delta "$c0" "$c1" "$k0" "$k1" "$work/ceil.cpu")"
	if [ "$(table_shape)" != "$shape" ]; then
		echo "the ceiling's tables differ from joinbench's (rows, indexes):" >&2
		echo "$shape" >&2
		table_shape >&2
		exit 1
	fi
done

jb_secs=$(median <"$work/jb.secs")
ceil_secs=$(median <"$work/ceil.secs")
jb_rate=$(rate "$rows" "$jb_secs")
ceil_rate=$(rate "$rows" "$ceil_secs")
cpu_note() { [ -n "$server_pid" ] && printf ', server+client cpu %.2fs' "$(median <"$1")"; true; }
echo "2. joinbench prepare: $rows rows in ${jb_secs}s = $jb_rate rows/s (median of $RUNS$(cpu_note "$work/jb.cpu"))"
echo "3. raw ceiling (LOAD DATA of pre-written files): $rows rows in ${ceil_secs}s = $ceil_rate rows/s (median of $RUNS$(cpu_note "$work/ceil.cpu"))"
awk -v a="$jb_rate" -v b="$ceil_rate" 'BEGIN { printf "joinbench / ceiling = %.2f\n", a / b }'
# The same comparison in CPU seconds (server plus clients, ceiling over
# joinbench): other load on the machine hardly moves it, and with every
# core busy it is the ratio of the speeds.
if [ -n "$server_pid" ]; then
	awk -v a="$(median <"$work/jb.cpu")" -v b="$(median <"$work/ceil.cpu")" 'BEGIN { printf "joinbench / ceiling in CPU seconds = %.2f\n", b / a }'
fi
"$bin" cleanup "${common[@]}" >/dev/null
