#!/usr/bin/env python3
"""The tables of bench/power.sh, from the comparisons it wrote in OUT.

    power_table.py factors OUT REPS FACTOR...   the injected slowdowns
    power_table.py held OUT REPS PERCENT...     ab --candidate-slow
"""
import json, math, re, statistics, sys


def wilson(k, n, z=1.96):
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (max(0.0, c - h), min(1.0, c + h))


def factors(out, reps, factors):
    print(f"{'factor':>7} {'overall regression':>26} {'scenarios called a regression':>34} {'median detectable (no change)':>31}")
    for f in factors:
        over = scen = nscen = 0
        detect = []
        for i in range(1, reps + 1):
            c = json.load(open(f"{out}/aa-{i}/x{f}.json"))
            if c.get("overall", {}).get("verdict") == "regression":
                over += 1
            for s in c["scenarios"]:
                nscen += 1
                scen += s["verdict"] == "regression"
                if s["verdict"] == "no change" and s.get("detectable"):
                    detect.append(s["detectable"])
        lo, hi = wilson(over, reps)
        slo, shi = wilson(scen, nscen)
        d = f"{100 * statistics.median(detect):.0f}%" if detect else "-"
        print(f"{f:>7} {over:>3}/{reps:<3} [{100*lo:3.0f}%, {100*hi:3.0f}%] {' ':6} {scen:>4}/{nscen:<5} {100*scen/max(nscen,1):5.1f}% [{100*slo:.1f}%, {100*shi:.1f}%] {d:>20}")


def held(out, reps, held):
    print(f"{'held back':>9} {'overall regression':>26} {'scenarios called a regression':>34} {'overall ratio (median, range)':>30} {'given (median)':>15}")
    for h in held:
        over = scen = nscen = 0
        ratios, given = [], []
        for i in range(1, reps + 1):
            c = json.load(open(f"{out}/held{h}-{i}.json"))
            o = c.get("overall") or {}
            over += o.get("verdict") == "regression"
            if (o.get("median") or {}).get("ratio"):
                ratios.append(o["median"]["ratio"])
            for s in c["scenarios"]:
                nscen += 1
                scen += s["verdict"] == "regression"
            m = re.search(r"held back ([0-9.]+)% of its server", open(f"{out}/held{h}-{i}.log").read())
            if m:
                given.append(float(m.group(1)))
        lo, hi = wilson(over, reps)
        slo, shi = wilson(scen, nscen)
        r = f"{statistics.median(ratios):.3f} ({min(ratios):.3f}-{max(ratios):.3f})" if ratios else "-"
        g = f"{statistics.median(given):.1f}%" if given else "0%"
        print(f"{h + '%':>9} {over:>3}/{reps:<3} [{100*lo:3.0f}%, {100*hi:3.0f}%] {' ':6} {scen:>4}/{nscen:<5} {100*scen/max(nscen,1):5.1f}% [{100*slo:.1f}%, {100*shi:.1f}%] {r:>30} {g:>15}")


if __name__ == "__main__":
    mode, out, reps, values = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4:]
    {"factors": factors, "held": held}[mode](out, reps, values)
