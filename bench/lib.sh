# Shared set-up of the side-by-side benchmark scripts; source it after
# setting DB. It builds joinbench into a temporary folder ($bin, $work) and
# chooses the server both tools are measured on:
#   HOST, PORT, USER, PASSWORD  a server of yours (PORT given), or else
#   a throwaway sandbox started here (buffer pool BUFFER_POOL, default 2G)
#   and stopped at the end, so the scripts run on a machine with only
#   mariadb-server installed.
# It defines bench_dsn (a DSN for $DB) and sets MYSQL_PWD for the clients.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[1]}")/.."

work=$(mktemp -d)
bin=$work/joinbench
go build -o "$bin" ./cmd/joinbench

bench_cleanup() {
	if [[ -n "${bench_sandbox:-}" ]]; then
		"$bin" sandbox stop -q --name "$bench_sandbox" --sandbox-dir "$work/sandboxes" || true
	fi
	rm -rf "$work"
}
trap bench_cleanup EXIT

USER=${USER:-root}
PASSWORD=${PASSWORD:-}
if [[ -z "${PORT:-}" ]]; then
	bench_sandbox=bench
	sb_dsn=$("$bin" sandbox start -q --name "$bench_sandbox" --sandbox-dir "$work/sandboxes" --buffer-pool-size "${BUFFER_POOL:-2G}")
	HOST=127.0.0.1
	PORT=$(sed -nE 's/.*tcp\([^:]*:([0-9]+)\).*/\1/p' <<<"$sb_dsn")
	USER=root
	PASSWORD=
	echo "server: throwaway sandbox on $HOST:$PORT" >&2
fi
HOST=${HOST:-127.0.0.1}
export MYSQL_PWD=$PASSWORD
mariadb -h"$HOST" -P"$PORT" -u"$USER" -e "CREATE DATABASE IF NOT EXISTS \`$DB\`"

bench_dsn() { echo "$USER${PASSWORD:+:$PASSWORD}@tcp($HOST:$PORT)/$DB"; }
