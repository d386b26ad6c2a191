#!/usr/bin/env bash
# The restore lesson's MTTR model validated from one dataset size and from
# the fit over two. On a throwaway 3-node cluster sandbox, the restore
# lesson runs at three sizes of main1 (ROWS, "100000 400000 1000000"), each
# with REPS (3) repetitions of one backup prepared with 100M and 2G
# (--one-backup) under BACKUP_WRITERS (2) writers, then the largest size is
# predicted three ways: from the smallest's rates, from the middle one's,
# and from the rates fitted over both (--rates-from twice). It prints the
# error per phase and --use-memory of each (predicted / measured - 1) and
# keeps the pages under OUT (a temporary folder unless given). SERIES (1)
# repeats the whole, to show how much the errors move between series.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

ROWS=${ROWS:-"100000 400000 1000000"}
REPS=${REPS:-3}
SERIES=${SERIES:-1}
BACKUP_WRITERS=${BACKUP_WRITERS:-2}
BUFFER_POOL=${BUFFER_POOL:-256M}

work=$(mktemp -d)
OUT=${OUT:-$work/out}
bin=$work/joinbench
cleanup() {
	"$bin" sandbox stop -q --name fit --sandbox-dir "$work/sandboxes" 2>/dev/null || true
	rm -rf "$work/sandboxes" "$bin"
}
trap cleanup EXIT
go build -o "$bin" ./cmd/joinbench
read -r -a sizes <<<"$ROWS"
((${#sizes[@]} == 3)) || { echo "ROWS: give three sizes, smallest first" >&2; exit 2; }
"$bin" sandbox start -q --name fit --galera 3 --sandbox-dir "$work/sandboxes" --buffer-pool-size "$BUFFER_POOL" >/dev/null
echo "3-node cluster, buffer pool $BUFFER_POOL; $(nproc) cores; sizes $ROWS rows, $REPS repetitions, $SERIES series" >&2


for s in $(seq "$SERIES"); do
	mkdir -p "$OUT/series$s"
	for rows in "${sizes[@]}"; do
		dir=$OUT/series$s/$rows
		echo "series $s: $rows rows, load $(cut -d' ' -f1-3 /proc/loadavg)" >&2
		"$bin" experiment restore --sandbox fit --sandbox-dir "$work/sandboxes" --table-size "$rows" \
			--use-memory 100M,2G --repetitions "$REPS" --one-backup --backup-writers "$BACKUP_WRITERS" --out "$dir" -q >"$dir.txt" 2>"$dir.err" ||
			{ echo "series $s, $rows rows: the lesson failed:" >&2; tail -5 "$dir.err" >&2; exit 1; }
	done
	d=$OUT/series$s
	for from in "${sizes[0]}" "${sizes[1]}" "${sizes[0]}+${sizes[1]}"; do
		args=()
		for r in ${from//+/ }; do args+=(--rates-from "$d/$r"); done
		echo "== series $s: ${sizes[2]} rows predicted from $from"
		"$bin" experiment restore "${args[@]}" --validate "$d/${sizes[2]}" --out "$work/projection" -q |
			sed -n '/^Validation/,/^- /p' | grep -v '^- \|^$'
	done
done
echo "pages: $OUT; load $(cut -d' ' -f1-3 /proc/loadavg)" >&2
