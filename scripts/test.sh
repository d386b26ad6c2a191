#!/usr/bin/env bash
# Runs a test suite:
#
#   scripts/test.sh        the fast suite (make test): unit tests and the
#                          single-server integration tests, against one
#                          server, in a few minutes
#   scripts/test.sh e2e    the end-to-end suite (make test-e2e): the tests
#                          in files built with the e2e tag (`//go:build
#                          e2e`): Galera clusters started, crashed,
#                          restored and throttled, the cluster lessons,
#                          servers hung or killed under a run, sandboxes of
#                          a test's own, HAProxy, scale-out processes,
#                          Prometheus scraping a run, the container image,
#                          the Kubernetes manifests and the browser checks
#
# Integration tests need a MySQL-family server named by JOINBENCH_TEST_DSN;
# without one, a throwaway sandbox is started for the duration of the tests
# (the server binary is installed first when missing), else those tests
# skip with a message (fail under CI=true).
#
# HOG=1 keeps one core busy with a CPU hog beside the suite, as on a busy
# laptop: every test must pass all the same, since none asserts a measured
# magnitude or a deadline a loaded machine can miss.
set -euo pipefail
cd "$(dirname "$0")/.."
JB=${JB:-bin/joinbench}
suite=${1:-fast}
case $suite in
fast | e2e) ;;
*)
	echo "usage: scripts/test.sh [fast|e2e]" >&2
	exit 2
	;;
esac

# What the tests need, as .ci/run installs it (as root with apt-get;
# otherwise it says what to install). Under CI=true a test whose part is
# missing fails, never skips.
#   fast: a server binary for the test sandbox, gcc for the race detector,
#         man-db for the man page test, zsh and fish for the completion
#         tests, MariaDB's SQL test suite for lint
#   e2e:  also the Galera library, mariadb-backup, socat and haproxy for
#         the clusters, chromium for the HTML checks, prometheus for the
#         live metrics test
parts=(server cc man shells suite)
[[ $suite == e2e ]] && parts+=(galera browser prometheus)
scripts/install-deps.sh "${parts[@]}" || echo "note: no server binary: integration tests will skip" >&2

# What this script started (the sandbox, the hog) stops when it ends.
hog_pid=
on_exit() {
	[[ -z $hog_pid ]] || kill "$hog_pid" 2>/dev/null || true
	[[ $(type -t cleanup) != function ]] || cleanup
}
trap on_exit EXIT

if [[ -z "${JOINBENCH_TEST_DSN:-}" ]]; then
	if "$JB" sandbox list >/dev/null 2>&1 && sbdir=$(mktemp -d -t joinbench-test-XXXXXX); then
		cleanup() {
			"$JB" sandbox stop --quiet --name test --sandbox-dir "$sbdir" || true
			rm -rf "$sbdir"
		}
		if dsn=$("$JB" sandbox start --quiet --name test --sandbox-dir "$sbdir" --database= --buffer-pool-size 256M); then
			export JOINBENCH_TEST_DSN=$dsn
			echo "test server: throwaway sandbox at $dsn" >&2
		else
			echo "note: no test server could be started; integration tests will skip" >&2
		fi
	fi
fi

if [[ "${HOG:-0}" == 1 ]]; then
	# One core kept busy for as long as the suite runs, and no longer: it
	# is stopped on exit, and by itself after two hours at most.
	timeout 7200 sh -c 'while :; do :; done' &
	hog_pid=$!
	echo "test: a CPU hog (pid $hog_pid) keeps one core busy beside the suite" >&2
fi

# With a C compiler (cgo), under the race detector: the engine, the writer
# and lint run goroutines side by side. RACE=0 turns it off.
race=()
if [[ "${RACE:-1}" != 0 && "$(go env CGO_ENABLED)" == 1 ]] && command -v "$(go env CC)" >/dev/null 2>&1; then
	race=(-race)
else
	echo "note: no C compiler for cgo: tests run without the race detector" >&2
fi

if [[ $suite == fast ]]; then
	go test "${race[@]}" -timeout "${TEST_TIMEOUT:-15m}" ./...
	exit
fi

# The e2e suite runs only the tests of the tagged files (the rest of each
# package is the fast suite's): their names are read from those files, so
# a test moves between the suites by moving it between files, never by a
# list kept here. One package at a time: each starts clusters of its own,
# and two at once would only make both slower.
declare -A tests=()
while IFS= read -r f; do
	dir=./$(dirname "$f")
	names=$(sed -nE 's/^func (Test[A-Za-z0-9_]+)\(t \*testing\.T\).*/\1/p' "$f" | paste -sd'|' -)
	[[ -n $names ]] && tests[$dir]=${tests[$dir]:+${tests[$dir]}|}$names
done < <(grep -rlE --include='*_test.go' '^//go:build e2e($| )' . | sed 's|^\./||' | sort)
((${#tests[@]})) || {
	echo "test-e2e: no test file is built with the e2e tag" >&2
	exit 1
}
status=0
for dir in $(printf '%s\n' "${!tests[@]}" | sort); do
	echo "test-e2e: $dir: ${tests[$dir]//|/ }" >&2
	go test "${race[@]}" -tags e2e -timeout "${TEST_TIMEOUT:-40m}" -run "^(${tests[$dir]})\$" "$dir" || status=1
done
exit $status
