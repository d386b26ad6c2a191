// Command pairing measures, on recorded ab comparisons in lockstep, how
// much a per-scenario verdict would gain from the pairing lockstep
// already gives: thread i of the base and thread i of the candidate run
// the same statement with the same values one right after the other, so
// each execution has a twin on the other side (the same thread, event
// and statement), and the log ratio of the twins holds neither the
// spread of the values' own latencies nor the machine's drift. The rule
// today compares per-slice medians of the two sides, each of some 9
// executions a slice whose values differ.
//
//	go run ./bench/pairing [-alpha 0.05] [-threshold 1.1] AB_DIR...
//
// Each AB_DIR is an ab=<id> folder (side=base/run=*, side=candidate/run=*,
// one run a side). Per scenario: the mean of the twins' log ratios in
// each slice, and a t interval over the slices at the confidence the
// rule gives each scenario (alpha/2 shared by the scenarios, one test
// each); a regression when the interval lies above 1 and the ratio above
// the threshold, as the rule says. It prints, per comparison, the
// scenarios called a regression and the median smallest slowdown a
// "no change" could see, so that it can be set beside the rule's own
// verdicts on the same folders (compare -f json): offline, nothing is
// changed in the rule.
package main

import (
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"

	"github.com/joinbench/joinbench/analysis/stats"
	"github.com/joinbench/joinbench/results"
)

type twinKey struct {
	scenario string
	thread   int32
	event    int64
	seq      int32
}

func main() {
	alpha := flag.Float64("alpha", 0.05, "family-wise error of an A/A comparison")
	threshold := flag.Float64("threshold", 1.1, "a regression's ratio must exceed this")
	flag.Parse()
	if flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: pairing [-alpha A] [-threshold T] AB_DIR...")
		os.Exit(2)
	}
	for _, dir := range flag.Args() {
		if err := judge(dir, *alpha, *threshold); err != nil {
			fmt.Fprintln(os.Stderr, "pairing:", dir+":", err)
			os.Exit(1)
		}
	}
}

// side reads a side's one run: its executions by twin key, with their
// slice.
func side(dir string) (map[twinKey][2]int64, *results.Run, error) {
	runs, _ := filepath.Glob(filepath.Join(dir, "run=*"))
	if len(runs) != 1 {
		return nil, nil, fmt.Errorf("%s: want one run (ab in lockstep), found %d", dir, len(runs))
	}
	info := results.ReadRunInfo(runs[0], nil)
	if info == nil || info.Replicate == nil || info.Replicate.Slice == 0 {
		return nil, nil, fmt.Errorf("%s: not a run in lockstep", runs[0])
	}
	runStart := info.Start.UnixNano()
	out := map[twinKey][2]int64{}
	_, err := results.ScanExecutions(runs[0], nil, func(e *results.Execution) error {
		if e.ErrorCode != 0 || e.CutAtEnd || e.LatencyNs <= 0 {
			return nil
		}
		slice := int64(info.Replicate.SliceOf(e.Start.UnixNano(), runStart))
		out[twinKey{e.Scenario, e.Thread, e.Event, e.StatementSeq}] = [2]int64{e.LatencyNs, slice}
		return nil
	})
	return out, info, err
}

func judge(dir string, alpha, threshold float64) error {
	base, info, err := side(filepath.Join(dir, "side=base"))
	if err != nil {
		return err
	}
	cand, _, err := side(filepath.Join(dir, "side=candidate"))
	if err != nil {
		return err
	}
	// scenario -> slice -> log ratios of twins
	logs := map[string]map[int64][]float64{}
	for k, b := range base {
		c, ok := cand[k]
		if !ok {
			continue
		}
		if logs[k.scenario] == nil {
			logs[k.scenario] = map[int64][]float64{}
		}
		logs[k.scenario][b[1]] = append(logs[k.scenario][b[1]], math.Log(float64(c[0])/float64(b[0])))
	}
	names := make([]string, 0, len(logs))
	for s := range logs {
		names = append(names, s)
	}
	sort.Strings(names)
	perScenario := alpha / 2 / float64(len(names))
	var called []string
	var detect []float64
	twins := 0
	for _, s := range names {
		var means []float64
		for _, xs := range logs[s] {
			twins += len(xs)
			means = append(means, mean(xs))
		}
		if len(means) < 2 {
			continue
		}
		m, sd := mean(means), stdev(means)
		hw := stats.StudentTQuantile(1-perScenario/2, float64(len(means)-1)) * sd / math.Sqrt(float64(len(means)))
		ratio := math.Exp(m)
		if m-hw > 0 && ratio > threshold {
			called = append(called, fmt.Sprintf("%s %.2f [%.2f, %.2f]", s, ratio, math.Exp(m-hw), math.Exp(m+hw)))
		} else {
			detect = append(detect, math.Max(threshold, math.Exp(hw))-1)
		}
	}
	slices.Sort(detect)
	med := math.NaN()
	if len(detect) > 0 {
		med = detect[len(detect)/2]
	}
	fmt.Printf("%s: %d scenarios, %d twins (%s slices), %d called a regression, median detectable %.0f%%\n",
		filepath.Base(dir), len(names), twins, info.Replicate.Slice, len(called), 100*med)
	for _, c := range called {
		fmt.Printf("  regression: %s\n", c)
	}
	return nil
}

func mean(xs []float64) float64 {
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

func stdev(xs []float64) float64 {
	m := mean(xs)
	s := 0.0
	for _, x := range xs {
		s += (x - m) * (x - m)
	}
	return math.Sqrt(s / float64(len(xs)-1))
}
