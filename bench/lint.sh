#!/usr/bin/env bash
# Times `joinbench lint` on a corpus of FILES (10,000) scenario files:
# copies of the built-in corpus (corpus/scenarios), each renamed (file and
# "-- scenario:" header) so that every name is unique, in folders of 100.
# It also times the pre-commit case: lint --no-builtin of one file.
#
# Each run is timed by /usr/bin/time (wall, user and system CPU); RUNS
# (10) runs, after one warm-up, and the median with the minimum and
# maximum are printed, of user+system CPU too. OTHER names a second
# joinbench binary (say, a build of main) to run in the same rounds,
# alternating with this build, so both see the same machine; the script
# also checks that both print the same JSON findings, and gives the
# median (min-max) of the rounds' ratios of this build's CPU and wall to
# the other's. FORMAT (json) is lint's --format. The machine these run
# on is shared: compare medians, and CPU (less noisy than wall) across
# builds, not single runs.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

FILES=${FILES:-10000}
RUNS=${RUNS:-10}
FORMAT=${FORMAT:-json}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/joinbench" ./cmd/joinbench

# The corpus: copy i of scenario s is s_i.sql, scenario s_i (bash
# builtins only: 10,000 forks of sed would take longer than the lint).
mapfile -t sources < <(find corpus/scenarios -name '*.sql' | sort)
texts=()
for src in "${sources[@]}"; do texts+=("$(<"$src")"); done
for ((i = 0; i < FILES; i++)); do
	k=$((i % ${#sources[@]}))
	name=${sources[k]##*/}
	name=${name%.sql}
	printf -v gen '%s_%05d' "$name" "$i"
	printf -v dir '%s/corpus/%03d' "$work" $((i / 100))
	[[ -d $dir ]] || mkdir -p "$dir"
	printf '%s\n' "${texts[k]/"-- scenario: $name"/"-- scenario: $gen"}" >"$dir/$gen.sql"
	((i > 0)) || one=$dir/$gen.sql # the file the pre-commit case lints
done
echo "corpus: $FILES files in $work/corpus; $(nproc) cores; load $(cut -d' ' -f1-3 /proc/loadavg)" >&2

builds=("$work/joinbench")
[[ -n "${OTHER:-}" ]] && builds+=("$OTHER")

# lint_run BIN OUT ARGS...: one timed run, appending "wall user sys" to OUT.
lint_run() {
	local bin=$1 out=$2
	shift 2
	local rc=0
	/usr/bin/time -f '%e %U %S' -a -o "$out" "$bin" lint --no-builtin --format "$FORMAT" "$@" >/dev/null || rc=$?
	((rc <= 1)) || { echo "lint failed (exit $rc)" >&2; exit 2; }
}

# med: the median (min-max) of the array a[1..n], as awk code for the
# summaries below.
med='function med(a, n,   i, j, t) {
	for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
	return sprintf("%.3f (%.3f-%.3f)", n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2, a[1], a[n])
}'

# summary FILE: median (min-max) of each column, and of user+system CPU.
summary() {
	awk "$med"'
	{ w[NR] = $1; u[NR] = $2; s[NR] = $3; c[NR] = $2 + $3 }
	END { n = NR; printf "wall %s  user %s  sys %s  cpu %s  runs %d\n", med(w, n), med(u, n), med(s, n), med(c, n), n }' "$1"
}

# ratios A B: median (min-max) of the per-round ratios of A's user+system
# CPU, and wall, to B's (the rounds ran one after the other, so each
# pair saw the same machine).
ratios() {
	paste -d' ' "$1" "$2" | awk "$med"'
	{ c[NR] = ($2 + $3) / ($5 + $6); w[NR] = $1 / $4 }
	END { printf "cpu %s  wall %s  rounds %d\n", med(c, NR), med(w, NR), NR }'
}

for b in "${!builds[@]}"; do # warm-up: the page cache, and the equality check
	"${builds[b]}" lint --no-builtin --format json "$work/corpus" >"$work/out$b.json" || true
	"${builds[b]}" lint --no-builtin --format json "$one" >"$work/one$b.json" || true
done
if ((${#builds[@]} == 2)); then
	if cmp -s "$work/out0.json" "$work/out1.json" && cmp -s "$work/one0.json" "$work/one1.json"; then
		echo "findings: identical JSON from both builds" >&2
	else
		echo "findings: the two builds differ" >&2
		diff <(head -c 2000 "$work/out0.json") <(head -c 2000 "$work/out1.json") >&2 || true
	fi
fi

for ((r = 0; r < RUNS; r++)); do
	for b in "${!builds[@]}"; do
		lint_run "${builds[b]}" "$work/all$b.times" "$work/corpus"
		lint_run "${builds[b]}" "$work/one$b.times" "$one"
	done
done

for b in "${!builds[@]}"; do
	label=this
	((b == 0)) || label=other
	echo "$label build: ${builds[b]/#$work\//}"
	echo "  $FILES files: $(summary "$work/all$b.times")"
	echo "  one file:    $(summary "$work/one$b.times")"
done
if ((${#builds[@]} == 2)); then
	echo "this/other, per round, $FILES files: $(ratios "$work/all0.times" "$work/all1.times")"
fi
