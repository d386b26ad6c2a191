#!/usr/bin/env bash
# Verdicts of joinbench ab and compare on this machine: how often they
# raise a false alarm when nothing changed, and how often they catch a
# real change. Two servers with the same data, A and B (the candidate).
#
#   MODE=aa      N (10) A/A comparisons with joinbench ab at the settings
#                under test: nothing differs between A and B.
#   MODE=single  N (10) plain single-run comparisons, as a user would do
#                first: joinbench run on A, run on B (SINGLE_TIME, 25s
#                each), joinbench compare.
#   MODE=index   N (3) comparisons with level1's idx_parent_id dropped on
#                B (restored at the end): flagged on the scenarios whose
#                plan changes, and nowhere else?
#   MODE=slow    N (5) comparisons with A sped up: the adaptive hash index
#                is turned ON on A (SET GLOBAL, restored at the end), so B,
#                left at the default OFF, spends about 1.15-1.3x the
#                server CPU per execution on every scenario.
#   MODE=cpu     N (5) comparisons with B's server CPU-limited: its
#                mariadbd is put in a cgroup with a CPU quota of CPU_QUOTA
#                (0.875) CPUs, over periods of 4 ms (root; cgroup v2 or
#                v1's cpu controller), taken off at the end. With 2 threads
#                and the 38 read scenarios that made every scenario 6-66%
#                slower (1.27x over all, measured by ab in lockstep).
#   MODE=calibrate  one A/A ab --calibrate of CAL_ROUNDS (10) rounds per
#                side, then the smallest change a comparison can reliably
#                flag per time budget, from each scenario's measured noise.
# MODE takes several modes separated by commas.
#
# Servers: PORT_A and PORT_B (HOST, USER, PASSWORD) name yours; or
# SANDBOX_A and SANDBOX_B (SANDBOX_DIR) running named sandboxes; else two
# throwaway sandboxes are started (BUFFER_POOL, default 256M) and removed
# at the end. DB (default jbbench_ab) is created and prepared on both with
# TABLES (1) x SIZE (10000) rows, seed 1.
#
# Workload: TAGS (inner,left,right,derived,semi_anti), THREADS (2). ab
# settings: INTERLEAVE (statements, ab's default; or rounds), ROUNDS and
# TIME (ab's defaults: 12 slices of 10s in lockstep, 6 rounds of 20s),
# WARMUP (2s), THRESHOLD (10%), NOISE_FILE (none; a calibration to use).
# Every comparison's rounds and JSON stay in OUT (default: a temporary
# folder, removed) so that they can be compared again offline. The
# machine's load average is printed with each comparison: the figures
# depend on it.
set -euo pipefail
cd "$(dirname "$0")/.."

MODE=${MODE:-aa}
DB=${DB:-jbbench_ab}
TABLES=${TABLES:-1}
SIZE=${SIZE:-10000}
TAGS=${TAGS:-inner,left,right,derived,semi_anti}
THREADS=${THREADS:-2}
INTERLEAVE=${INTERLEAVE:-statements}
ROUNDS=${ROUNDS:-}
TIME=${TIME:-}
WARMUP=${WARMUP:-2s}
THRESHOLD=${THRESHOLD:-10%}
SINGLE_TIME=${SINGLE_TIME:-25s}
CAL_ROUNDS=${CAL_ROUNDS:-10}
NOISE_FILE=${NOISE_FILE:-}
USER=${USER:-root}
PASSWORD=${PASSWORD:-}
HOST=${HOST:-127.0.0.1}

work=$(mktemp -d)
bin=$work/joinbench
go build -o "$bin" ./cmd/joinbench
OUT=${OUT:-$work/out}
mkdir -p "$OUT"
export JOINBENCH_PASSWORD=$PASSWORD MYSQL_PWD=$PASSWORD

started=()
restore=() # PORT|SQL undoing a mode's change to a server
cgroup=""  # the cgroup of MODE=cpu, removed by undo
undo() {
	for sql in "${restore[@]}"; do
		mariadb -h"$HOST" -P"${sql%%|*}" -u"$USER" "$DB" -e "${sql#*|}" || true
	done
	restore=()
	if [[ -n $cgroup ]]; then
		# back to the parent group, then the group goes
		while read -r pid; do echo "$pid" >"$(dirname "$cgroup")/cgroup.procs" || true; done <"$cgroup/cgroup.procs"
		rmdir "$cgroup" || true
		cgroup=""
	fi
}

# cpu_limit PORT QUOTA: puts the server listening on PORT in a cgroup
# limited to QUOTA CPUs (periods of 4 ms).
cpu_limit() {
	local pid period=4000 quota
	pid=$(ss -ltnpH "sport = :$1" | sed -nE 's/.*pid=([0-9]+).*/\1/p' | head -n 1)
	[[ -n $pid ]] || { echo "no server process listens on port $1" >&2; exit 1; }
	quota=$(awk -v q="$2" -v p=$period 'BEGIN { printf "%d", q * p }')
	if [[ -f /sys/fs/cgroup/cgroup.controllers ]] && grep -qw cpu /sys/fs/cgroup/cgroup.controllers; then
		cgroup=/sys/fs/cgroup/jbbench-cpu-$$
		mkdir "$cgroup"
		echo "$quota $period" >"$cgroup/cpu.max"
	elif [[ -d /sys/fs/cgroup/cpu ]]; then
		cgroup=/sys/fs/cgroup/cpu/jbbench-cpu-$$
		mkdir "$cgroup"
		echo "$period" >"$cgroup/cpu.cfs_period_us"
		echo "$quota" >"$cgroup/cpu.cfs_quota_us"
	else
		echo "MODE=cpu needs the cgroup cpu controller (and root)" >&2
		exit 1
	fi
	echo "$pid" >"$cgroup/cgroup.procs"
	echo "server on port $1 (pid $pid) limited to $2 CPUs in $cgroup" >&2
}
cleanup() {
	undo
	for s in "${started[@]}"; do
		"$bin" sandbox stop -q --name "$s" --sandbox-dir "$work/sandboxes" || true
	done
	rm -rf "$work"
}
trap cleanup EXIT

sandbox_port() { "$bin" sandbox status --name "$1" ${SANDBOX_DIR:+--sandbox-dir "$SANDBOX_DIR"} --json |
	python3 -c 'import json,sys; print(json.load(sys.stdin)["port"])'; }
if [[ -n "${PORT_A:-}" && -n "${PORT_B:-}" ]]; then
	:
elif [[ -n "${SANDBOX_A:-}" && -n "${SANDBOX_B:-}" ]]; then
	PORT_A=$(sandbox_port "$SANDBOX_A")
	PORT_B=$(sandbox_port "$SANDBOX_B")
else
	for s in abnoise-a abnoise-b; do
		"$bin" sandbox start -q --name "$s" --sandbox-dir "$work/sandboxes" --buffer-pool-size "${BUFFER_POOL:-256M}" >/dev/null
		started+=("$s")
	done
	PORT_A=$(SANDBOX_DIR=$work/sandboxes sandbox_port abnoise-a)
	PORT_B=$(SANDBOX_DIR=$work/sandboxes sandbox_port abnoise-b)
	USER=root
	export JOINBENCH_PASSWORD= MYSQL_PWD=
fi
A=$HOST:$PORT_A
B=$HOST:$PORT_B
sql() { mariadb -h"$HOST" -P"$1" -u"$USER" "$DB" -N -e "$2"; }
for p in "$PORT_A" "$PORT_B"; do
	mariadb -h"$HOST" -P"$p" -u"$USER" -e "CREATE DATABASE IF NOT EXISTS \`$DB\`"
	"$bin" prepare -q --host "$HOST" --port "$p" --user "$USER" --database "$DB" --tables "$TABLES" --table-size "$SIZE" --seed 1 --recreate
	"$bin" warmup -q --host "$HOST" --port "$p" --user "$USER" --database "$DB" >/dev/null
done
echo "servers: A $A, B $B; workload --tags $TAGS, $THREADS threads, $TABLES x $SIZE rows; $(nproc) CPUs" >&2

workload=(--tags "$TAGS" --threads "$THREADS" --tables "$TABLES" --table-size "$SIZE" --user "$USER" --database "$DB")
verdicts=(--threshold "$THRESHOLD" ${NOISE_FILE:+--noise-file "$NOISE_FILE"})
schedule=(--interleave "$INTERLEAVE" --warmup "$WARMUP" ${ROUNDS:+--rounds "$ROUNDS"} ${TIME:+--time "$TIME"})
load() { cut -d' ' -f1-3 /proc/loadavg; }

# summarize MODE-N JSON EXIT SECONDS LOAD: one line per comparison, kept
# for the totals.
summarize() {
	python3 - "$@" <<'PY' | tee -a "$OUT/summary.txt"
import json, sys
name, path, code, secs, load = sys.argv[1:6]
c = json.load(open(path))
n = len(c["scenarios"])
counts = ", ".join(f"{v} {k}" for k, v in sorted(c["counts"].items()))
methods = sorted({s.get("method", "-") for s in c["scenarios"]})
rounds = c["base"]["rounds"]
execs = sorted(s.get("base_executions", 0) for s in c["scenarios"] if s.get("base_executions"))
mid = execs[len(execs) // 2] if execs else 0
extra = ""
if name.startswith("index"):
    used = [s for s in c["scenarios"] if s["plan_changed"]]
    hit = [s for s in used if s["verdict"] == "regression"]
    other = [s for s in c["scenarios"] if not s["plan_changed"] and s["verdict"] not in ("no change", "too noisy to judge")]
    extra = f"; index users (plan changed) flagged {len(hit)}/{len(used)}; others flagged {len(other)}"
    extra += "; missed: " + ",".join(s["scenario"] for s in used if s not in hit) if len(hit) < len(used) else ""
ratios = sorted(s["median"]["ratio"] for s in c["scenarios"] if s.get("median"))
med = ratios[len(ratios) // 2] if ratios else 0
print(f"{name}: exit {code}, {secs}s, load {load}; {rounds} round(s)/side, median {mid} executions/scenario/side, "
      f"method {'/'.join(methods)}, median ratio over scenarios {med:.2f}; {counts}{extra}")
PY
}

# ab_once NAME [ab flags...]
ab_once() {
	local name=$1
	shift
	local t0 l0 code=0
	t0=$(date +%s)
	l0=$(load)
	"$bin" ab -q --base "$A" --candidate "$B" "${workload[@]}" "${schedule[@]}" \
		--out "$OUT/$name" --run-id "$name" "${verdicts[@]}" -f json -o "$OUT/$name.json" "$@" || code=$?
	[[ $code -le 1 ]] || { echo "$name: ab failed with exit $code" >&2; exit 1; }
	summarize "$name" "$OUT/$name.json" "$code" "$(($(date +%s) - t0))" "$l0"
}

single_once() {
	local name=$1 t0 l0 code=0
	t0=$(date +%s)
	l0=$(load)
	for side in a b; do
		local port=$PORT_A
		[[ $side == b ]] && port=$PORT_B
		"$bin" run -q --host "$HOST" --port "$port" "${workload[@]}" --time "$SINGLE_TIME" --out "$OUT/$name" --run-id "$side" >/dev/null
	done
	"$bin" compare -q "$OUT/$name/run=a" "$OUT/$name/run=b" "${verdicts[@]}" -f json -o "$OUT/$name.json" || code=$?
	[[ $code -le 1 ]] || { echo "$name: compare failed with exit $code" >&2; exit 1; }
	summarize "$name" "$OUT/$name.json" "$code" "$(($(date +%s) - t0))" "$l0"
}

# totals MODE: share of scenario verdicts other than "no change", and of
# comparisons that failed the gate.
totals() {
	python3 - "$1" "$OUT" <<'PY'
import glob, json, os, sys
mode, out = sys.argv[1], sys.argv[2]
files = sorted(f for f in glob.glob(os.path.join(out, mode + "-*.json")))
if not files:
    sys.exit()
verdicts, failed, flagged = {}, 0, 0
total = 0
for f in files:
    c = json.load(open(f))
    for s in c["scenarios"]:
        verdicts[s["verdict"]] = verdicts.get(s["verdict"], 0) + 1
        total += 1
    if not c.get("pass", c["counts"].get("regression", 0) + c["counts"].get("wrong results", 0) == 0):
        failed += 1
other = total - verdicts.get("no change", 0)
claims = verdicts.get("regression", 0) + verdicts.get("improvement", 0) + verdicts.get("wrong results", 0)
print(f"== {mode}: {len(files)} comparisons, {total} scenario verdicts: " + ", ".join(f"{v} {k}" for k, v in sorted(verdicts.items())))
print(f"   verdicts other than 'no change': {other}/{total} ({100*other/total:.1f}%); "
      f"of them claiming a change (regression, improvement, wrong results): {claims} ({100*claims/total:.1f}%); "
      f"comparisons failing the gate (exit 1): {failed}/{len(files)}")
PY
}

# detectable NOISE_JSON: smallest median slowdown flagged in 90% of
# comparisons, per number of rounds, from the paired noise of each
# scenario and of the geometric mean over scenarios, with the intervals
# and the rule compare uses (simultaneous: each scenario at 1 - 2.5%/(2 x
# scenarios), the overall row at 97.5%; flagged when the interval lies
# above 1 and the ratio above 1 + threshold).
detectable() {
	local time=$TIME
	[[ -n $time ]] || { [[ $INTERLEAVE == statements ]] && time=10s || time=20s; }
	python3 - "$1" "$THRESHOLD" "$time" "$WARMUP" "$INTERLEAVE" <<'PY'
import json, math, sys
noise, thr, time_, warm, inter = json.load(open(sys.argv[1])), sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5]
t = float(thr.rstrip("%")) / 100 if thr.endswith("%") else float(thr)
secs = lambda d: float(d.rstrip("s"))
# minutes per pair of rounds: rounds of their own pay a warm-up, the
# connecting and the last events each, one side after the other; the
# slices of runs in lockstep are measured on both sides at once
per_round = secs(time_) / 2 if inter == "statements" else secs(time_) + secs(warm) + 4

def betacf(a, b, x):
    c, d = 1.0, 1 - (a + b) * x / (a + 1)
    d = 1 / (d or 1e-300)
    h = d
    for m in range(1, 300):
        for num in (m * (b - m) * x / ((a + 2*m - 1) * (a + 2*m)), -(a + m) * (a + b + m) * x / ((a + 2*m) * (a + 2*m + 1))):
            d = 1 + num * d
            d = 1 / (d or 1e-300)
            c = 1 + num / (c or 1e-300)
            h *= d * c
        if abs(d * c - 1) < 1e-14:
            break
    return h

def t_cdf(x, df):
    z = df / (df + x * x)
    front = math.exp(math.lgamma((df + 1) / 2) - math.lgamma(df / 2) - math.lgamma(0.5) + df / 2 * math.log(z) + 0.5 * math.log1p(-z))
    a, b = df / 2, 0.5
    ib = front * betacf(a, b, z) / a if z < (a + 1) / (a + b + 2) else 1 - front * betacf(b, a, 1 - z) / b
    return 1 - ib / 2 if x > 0 else ib / 2

def t_q(p, df):
    lo, hi = 0.0, 1.0
    while t_cdf(hi, df) < p:
        hi *= 2
    for _ in range(200):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if t_cdf(mid, df) < p else (lo, mid)
    return (lo + hi) / 2

pair = lambda s: s["median"].get("sigma_paired") or s["median"]["sigma"] * math.sqrt(2)
sig = sorted(pair(s) for s in noise["scenarios"].values())
k = len(sig)
o = noise.get("overall")
so = pair(o) if o else None
print(f"== detectable: per-pair noise (sd of the log ratio of adjacent rounds' medians) over {k} scenarios: "
      f"min {sig[0]:.3f}, median {sig[k//2]:.3f}, max {sig[-1]:.3f}" + (f"; of their geometric mean: {so:.3f}" if so else ""))
print(f"   smallest slowdown flagged in 90% of comparisons by the interval over rounds (threshold {thr}), rounds of {time_}:")
for n in (3, 6, 10, 20, 40):
    # 90% power of compare's rule over rounds: the interval's low end above
    # 1 and the ratio above 1 + threshold.
    need = lambda s, conf: max(math.exp((t_q(1 - (1 - conf) / 2, n - 1) + t_q(0.9, n - 1)) * s / math.sqrt(n)),
                               (1 + t) * math.exp(t_q(0.9, n - 1) * s / math.sqrt(n))) - 1
    per = 1 - 0.025 / (2 * k)
    line = (f"   {n:3d} rounds/side (~{2*n*per_round/60:.0f} min): one scenario (median noise) {100*need(sig[k//2], per):.0f}%, "
            f"quietest {100*need(sig[0], per):.0f}%, noisiest {100*need(sig[-1], per):.0f}%")
    if so:
        line += f"; all scenarios at once {100*need(so, 0.975):.0f}%"
    print(line)
PY
}

for mode in ${MODE//,/ }; do
	case $mode in
	aa)
		for i in $(seq 1 "${N:-10}"); do ab_once "aa-$i"; done
		totals aa
		;;
	single)
		for i in $(seq 1 "${N:-10}"); do single_once "single-$i"; done
		totals single
		;;
	index)
		sql "$PORT_B" "ALTER TABLE level1 DROP INDEX idx_parent_id"
		restore+=("$PORT_B|ALTER TABLE level1 ADD INDEX idx_parent_id (parent_id)")
		for i in $(seq 1 "${N:-3}"); do ab_once "index-$i"; done
		undo
		totals index
		;;
	slow)
		old=$(sql "$PORT_A" "SELECT @@GLOBAL.innodb_adaptive_hash_index")
		sql "$PORT_A" "SET GLOBAL innodb_adaptive_hash_index=ON"
		restore+=("$PORT_A|SET GLOBAL innodb_adaptive_hash_index=$old")
		for i in $(seq 1 "${N:-5}"); do ab_once "slow-$i"; done
		undo
		totals slow
		;;
	cpu)
		cpu_limit "$PORT_B" "${CPU_QUOTA:-0.875}"
		for i in $(seq 1 "${N:-5}"); do ab_once "cpu-$i"; done
		undo
		totals cpu
		;;
	calibrate)
		t0=$(date +%s)
		"$bin" ab -q --base "$A" --candidate "$B" "${workload[@]}" "${schedule[@]}" --rounds "$CAL_ROUNDS" \
			--out "$OUT/calibrate" --run-id calibrate --calibrate "$OUT/noise.json" -f json -o "$OUT/calibrate.json"
		echo "calibration: $CAL_ROUNDS rounds per side in $(($(date +%s) - t0))s, written to $OUT/noise.json" >&2
		detectable "$OUT/noise.json"
		;;
	*)
		echo "unknown MODE $mode (aa, single, index, slow, cpu, calibrate)" >&2
		exit 2
		;;
	esac
done
