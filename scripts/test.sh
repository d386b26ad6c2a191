#!/usr/bin/env bash
# Runs the test suite. Integration tests need a MySQL-family server named by
# JOINBENCH_TEST_DSN; without one, a throwaway sandbox is started for the
# duration of the tests (the server binary is installed first when
# missing), else those tests skip with a message (fail under CI=true).
set -euo pipefail
cd "$(dirname "$0")/.."
JB=${JB:-bin/joinbench}

# What the tests need, as .ci/run installs it (as root with apt-get;
# otherwise it says what to install): a server binary for the test
# sandboxes and the Galera cluster test, chromium for the HTML report test,
# gcc for the race detector, man-db for the man page test, zsh and fish for
# the completion tests, prometheus for the live metrics test. Under
# CI=true a test whose part is missing fails, never skips.
scripts/install-deps.sh server galera browser cc man shells suite prometheus || echo "note: no server binary: integration tests will skip" >&2

if [[ -z "${JOINBENCH_TEST_DSN:-}" ]]; then
	if "$JB" sandbox list >/dev/null 2>&1 && sbdir=$(mktemp -d -t joinbench-test-XXXXXX); then
		cleanup() {
			"$JB" sandbox stop --quiet --name test --sandbox-dir "$sbdir" || true
			rm -rf "$sbdir"
		}
		trap cleanup EXIT
		if dsn=$("$JB" sandbox start --quiet --name test --sandbox-dir "$sbdir" --database= --buffer-pool-size 256M); then
			export JOINBENCH_TEST_DSN=$dsn
			echo "test server: throwaway sandbox at $dsn" >&2
		else
			echo "note: no test server could be started; integration tests will skip" >&2
		fi
	fi
fi

# With a C compiler (cgo), under the race detector: the engine, the writer
# and lint run goroutines side by side. RACE=0 turns it off.
race=()
if [[ "${RACE:-1}" != 0 && "$(go env CGO_ENABLED)" == 1 ]] && command -v "$(go env CC)" >/dev/null 2>&1; then
	race=(-race)
else
	echo "note: no C compiler for cgo: tests run without the race detector" >&2
fi
go test "${race[@]}" -timeout "${TEST_TIMEOUT:-40m}" ./...
