package judge

import (
	"errors"

	"github.com/joinbench/joinbench/analysis/compare"
	"github.com/joinbench/joinbench/analysis/internal/warn"
	"github.com/joinbench/joinbench/analysis/report"
	"github.com/joinbench/joinbench/internal/parallel"
)

// Compare reads the base and candidate run folders and compares them
// scenario by scenario by the rule of analysis/compare. Each run folder of a
// side is one round: with several rounds on both sides, latency verdicts
// come from the spread between rounds.
func Compare(baseDirs, candDirs []string, opt compare.Options) (*compare.Comparison, error) {
	c, _, err := comparison(baseDirs, candDirs, opt)
	return c, err
}

// comparison is Compare that also returns the rounds (nil when each side
// is one run folder). Warnings are given in the order the checks are made.
func comparison(baseDirs, candDirs []string, opt compare.Options) (*compare.Comparison, *compare.Rounds, error) {
	opt = opt.WithDefaults()
	c := compare.New(opt)
	w := warner{List: &c.Warnings, Fn: opt.Warn}
	if err := checkDatasets(baseDirs, candDirs, opt.AllowDifferentData, w); err != nil {
		return nil, nil, err
	}
	base, cand, err := report.ReadSides(baseDirs, candDirs, c, w.Warn)
	if err != nil {
		return nil, nil, err
	}
	examples, err := report.ChecksumExamples(candDirs, base, cand)
	if err != nil {
		return nil, nil, err
	}
	w.WarnIf(compare.CheckOptions(base.Info(), cand.Info()))
	if err := compare.CheckSaturation(base.Infos(), cand.Infos()); err != nil {
		var sat *compare.Saturated
		if errors.As(err, &sat) {
			c.Saturated = sat.Runs
		}
		w.Warn(err)
	}
	if c.SkipChecksums(append(base.Writes(), cand.Writes()...)) {
		examples = nil
	}
	var pairs map[string]*compare.WorkPairs
	if opt.WorkBound > compare.NoWork {
		if c.WorkSkipped = compare.WorkComparable(base.Infos(), cand.Infos(), len(base.Work()), len(cand.Work())); c.WorkSkipped == "" {
			pairs = compare.PairWork(base.Work(), cand.Work())
		}
	}
	names := report.ScenarioNames(base, cand)
	if err := compare.CheckNoise(opt.Noise, c, names); err != nil {
		return nil, nil, err
	}
	rounds, err := report.ReadRounds(baseDirs, candDirs, names, opt.Seed)
	if err != nil {
		return nil, nil, err
	}
	w.WarnIf(compare.CheckRoundSize(opt.Noise, rounds, names))
	j := compare.NewJudge(opt, len(names), rounds)
	j.Describe(c, rounds)
	// Scenarios are judged in parallel: each reads only its own figures
	// and draws from its own seeded generator, so the output is the same.
	judged := make([]compare.ScenarioComparison, len(names))
	parallel.Each(len(names), func(i int) {
		in := report.ScenarioInput(names[i], base, cand, examples[names[i]], c.ChecksumsSkipped == "", rounds)
		in.Work = pairs[names[i]]
		judged[i] = j.Scenario(in)
		judged[i].BaseCDF, judged[i].CandidateCDF = compare.CDF(in.Base.Metrics), compare.CDF(in.Candidate.Metrics)
	})
	c.Add(judged...)
	// After the judging, which closed the scenarios' metrics.
	act := compare.Activity{Base: []compare.RoundActivity{base.Activity()}, Candidate: []compare.RoundActivity{cand.Activity()}}
	if rounds != nil {
		act = rounds.Activity
	}
	failed, idle := compare.CheckActivity(act)
	c.SideFailures = failed
	w.WarnIf(idle)
	if c.Stalls, c.Methods, err = compareActions(baseDirs, candDirs, w); err != nil {
		return nil, nil, err
	}
	bn, _ := base.Cut()
	cn, _ := cand.Cut()
	j.Finish(c, rounds, bn, cn)
	if note := compare.AANote(base.Info(), cand.Info()); note != "" {
		c.Notes = append(c.Notes, note)
	}
	return c, rounds, nil
}

// warner collects warnings and passes them on (package warn).
type warner = warn.Collector
