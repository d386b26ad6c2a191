#!/usr/bin/env bash
# Times `joinbench sandbox start --galera NODES` (3) of a new cluster until
# every node is Synced, both ways it can start: seeded (the default: the
# joiners start from a copy of node1's data and join with no state
# transfer) and by transfer (the hidden --galera-join-by-transfer, kept for
# this comparison: each joiner receives node1's data by a full mariabackup
# state transfer, one after the other). RUNS (5) rounds, each starting and
# stopping one cluster each way, the order alternating between rounds, so
# that both see the same machine; at most one cluster runs at a time.
# Prints each time, the median with the minimum and maximum of each way,
# the ratio seeded/by-transfer of the medians and of each round, and the
# load average before and after. BUFFER_POOL (1G, the sandbox default) is
# each node's buffer pool.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

RUNS=${RUNS:-5}
NODES=${NODES:-3}
BUFFER_POOL=${BUFFER_POOL:-1G}

work=$(mktemp -d)
bin=$work/joinbench
cleanup() {
	"$bin" sandbox stop -q --name start --sandbox-dir "$work/sandboxes" 2>/dev/null || true
	rm -rf "$work"
}
trap cleanup EXIT
go build -o "$bin" ./cmd/joinbench
echo "$NODES-node cluster, buffer pool $BUFFER_POOL, $RUNS rounds; $(nproc) cores; load $(cut -d' ' -f1-3 /proc/loadavg)" >&2

# start_once WAY: starts and stops a new cluster the WAY given (seeded or
# transfer), appending its start's wall seconds to $work/WAY.times.
start_once() {
	local way=$1 flags=() t0 t1 taken log=$work/start.log
	[[ $way == seeded ]] || flags=(--galera-join-by-transfer)
	t0=$(date +%s.%N)
	if ! "$bin" sandbox start --name start --sandbox-dir "$work/sandboxes" --galera "$NODES" \
		--buffer-pool-size "$BUFFER_POOL" "${flags[@]}" >/dev/null 2>"$log"; then
		cat "$log" >&2
		exit 2
	fi
	t1=$(date +%s.%N)
	# The way the start took, from its progress lines.
	if grep -q "which join with no state transfer" "$log"; then taken=seeded; else taken=transfer; fi
	if [[ $taken != "$way" ]]; then
		echo "asked for a $way start, the start took the $taken way:" >&2
		cat "$log" >&2
		exit 2
	fi
	"$bin" sandbox stop -q --name start --sandbox-dir "$work/sandboxes"
	awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f\n", b - a }' >>"$work/$way.times"
	printf '%-9s %6.2f s\n' "$way" "$(tail -1 "$work/$way.times")"
}

for ((r = 0; r < RUNS; r++)); do
	if ((r % 2 == 0)); then
		start_once transfer
		start_once seeded
	else
		start_once seeded
		start_once transfer
	fi
done

# summary FILE: median (min-max).
summary() {
	sort -n "$1" | awk '{ v[NR] = $1 } END {
		m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
		printf "%.2f s (%.2f-%.2f)", m, v[1], v[NR] }'
}
median() { sort -n | awk '{ v[NR] = $1 } END { printf "%.3f", NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

echo "by transfer: $(summary "$work/transfer.times")"
echo "seeded:      $(summary "$work/seeded.times")"
echo "seeded / by transfer, medians: $(awk -v a="$(median <"$work/seeded.times")" -v b="$(median <"$work/transfer.times")" 'BEGIN { printf "%.3f", a / b }')"
echo "seeded / by transfer, per round: $(paste "$work/seeded.times" "$work/transfer.times" | awk '{ printf "%s%.3f", (NR > 1 ? " " : ""), $1 / $2 }')"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
