package report

import (
	"errors"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/joinbench/joinbench/analysis/compare"
	"github.com/joinbench/joinbench/results"
)

// Side is what a comparison reads of one side of run folders: the
// scenarios' figures, plans, run.json files and work samples (ReadSides).
type Side struct {
	acc *runAcc
	cat *planCatalog
	// writes are the scenarios that modified data in any of its runs,
	// info the run.json of its first run.
	writes []string
	info   *results.Run
	infos  []*results.Run // of every run folder that has one
	work   []results.Work // the work samples of every run folder
	// notReached are the scenarios its events never reached, with those
	// ahead of them that stalled (cut.go).
	notReached map[string][]string
	// warningsCounted: every run of it counted statements' warnings.
	warningsCounted bool
}

// Activity is what a side read as one round did: every statement it
// completed or had cut at the end. Its scenarios' metrics must be closed.
func (d *Side) Activity() compare.RoundActivity {
	var a compare.RoundActivity
	var last time.Time
	for _, sc := range d.acc.scenarios {
		a.Completed += sc.m.Executions
		for code, n := range sc.m.ErrorCodes {
			if compare.ConnectionLost(code) {
				a.ConnLost += n
			}
		}
		if sc.m.Last.After(last) {
			last = sc.m.Last
		}
	}
	a.Cut, a.LongestCutNs = d.acc.cut.total()
	if d.info != nil && !d.info.End.IsZero() && !last.IsZero() {
		a.IdleAtEndNs = max(int64(d.info.End.Sub(last)), 0)
	}
	if d.info != nil {
		a.Unanswered = d.info.Unanswered
	}
	return a
}

// ReadSides reads the two sides of a comparison into c's Base and
// Candidate at once, each with its own warnings, which are then passed to
// warn base first as when they were read one after the other.
func ReadSides(baseDirs, candDirs []string, c *compare.Comparison, warn func(error)) (base, cand *Side, err error) {
	type sideRead struct {
		data     *Side
		warnings []string
		err      error
	}
	read := func(name string, dirs []string, side *compare.Side) *sideRead {
		r := &sideRead{}
		r.data, r.err = readSide(name, dirs, side, warner{List: &r.warnings})
		return r
	}
	var br *sideRead
	done := make(chan struct{})
	go func() {
		defer close(done)
		br = read(results.SideBase, baseDirs, &c.Base)
	}()
	cr := read(results.SideCandidate, candDirs, &c.Candidate)
	<-done
	for _, r := range []*sideRead{br, cr} {
		for _, msg := range r.warnings {
			if warn != nil {
				warn(errors.New(msg))
			}
		}
	}
	for _, r := range []*sideRead{br, cr} {
		if r.err != nil {
			return nil, nil, r.err
		}
	}
	return br.data, cr.data, nil
}

// ScenarioNames are the scenarios of either side, sorted: those with an
// execution, and those with statements cut at the end only (a scenario
// that never completed on either side is compared too).
func ScenarioNames(bs, cs *Side) []string {
	base, cand := bs.acc, cs.acc
	names := map[string]bool{}
	for n := range base.scenarios {
		names[n] = true
	}
	for n := range cand.scenarios {
		names[n] = true
	}
	for n := range base.cut {
		names[n] = true
	}
	for n := range cand.cut {
		names[n] = true
	}
	return slices.Sorted(maps.Keys(names))
}

// ScenarioInput is what the rule judges a scenario on, from what both
// sides read of it.
func ScenarioInput(name string, base, cand *Side, examples map[uint64][]string, checkResults bool, rounds *compare.Rounds) compare.Scenario {
	return compare.Scenario{Name: name, Base: observed(name, base), Candidate: observed(name, cand),
		Examples: examples, CheckResults: checkResults, Rounds: rounds.Of(name)}
}

// observed is what one side holds of a scenario, as the rule takes it.
func observed(name string, side *Side) compare.Observed {
	o := compare.Observed{
		Listed:          side.info != nil && slices.Contains(side.info.Scenarios, name),
		WarningsCounted: side.warningsCounted,
		PlanText:        func(hash string) string { return side.cat.text(name, hash) },
		Limit:           side.cat.limits[name],
	}
	if a := side.acc.scenarios[name]; a != nil {
		o.Metrics, o.Plans, o.Templates, o.Checksums = &a.m, a.plans, a.templates, a.checks.sums
	}
	if ct := side.acc.cut[name]; ct != nil {
		o.Cut = &compare.Cut{N: ct.n, LongestNs: ct.ranNs, Ran: ct.ran}
	}
	if ahead := side.notReached[name]; ahead != nil {
		o.NotReached = notReachedText(ahead, side.acc.cut)
	}
	return o
}

// ChecksumExamples returns, per scenario, the parameters of up to 20
// candidate rows whose result checksum differs from the base's for the
// same parameters. Parameters are not kept while reading, so the candidate
// is read a second time, by rows holding checksums only, when the
// checksums kept show a possible mismatch: the examples are those of
// looking at each candidate row in file order with the base at hand.
func ChecksumExamples(candDirs []string, bs, cs *Side) (map[string]map[uint64][]string, error) {
	base, cand := bs.acc, cs.acc
	examples := map[string]map[uint64][]string{}
	if !mayMismatch(base, cand) {
		return examples, nil
	}
	onChecksum := func(a *scenarioAcc, params []string, checksum string) {
		b := base.scenarios[a.name]
		if b == nil {
			return
		}
		key := compare.HashStrings(params...)
		bv, ok := b.checks.sums[key]
		if !ok || bv.Hash == 0 || bv.Hash == compare.HashStrings(checksum) {
			return
		}
		ex := examples[a.name]
		if ex == nil {
			ex = map[uint64][]string{}
			examples[a.name] = ex
		}
		if len(ex) < 20 {
			if _, ok := ex[key]; !ok {
				ex[key] = cloneParams(params) // params share their page's memory: keep copies
			}
		}
	}
	again := newRunAcc(true)
	again.onChecksum = onChecksum
	for _, d := range candDirs {
		if err := again.readRun(d, nil); err != nil { // its warnings were given the first time
			return nil, err
		}
	}
	return examples, nil
}

// mayMismatch reports whether a candidate row may have a checksum other
// than the base's for the same parameters: a parameter set kept on both
// sides whose candidate checksum is not the base's one (or varied), or
// candidate sets not kept (past maxChecksumKeys) where the base has some.
func mayMismatch(base, cand *runAcc) bool {
	for name, c := range cand.scenarios {
		b := base.scenarios[name]
		if b == nil || len(b.checks.sums) == 0 {
			continue
		}
		if c.checks.dropped > 0 {
			return true
		}
		for key, cv := range c.checks.sums {
			if bv, ok := b.checks.sums[key]; ok && bv.Hash != 0 && cv.Hash != bv.Hash {
				return true
			}
		}
	}
	return false
}

// readSide reads one side (name: results.SideBase or SideCandidate) of a
// comparison into side and returns what it read. A side without a single
// readable execution is a *NoExecutionsError; a run folder without one,
// among others that have some, is warned about.
func readSide(name string, dirs []string, side *compare.Side, w warner) (*Side, error) {
	acc := newRunAcc(true)
	var plans []results.Plan
	var first *results.Run
	var writes, failed, empty []string
	var infos []*results.Run
	var samples []results.Work
	for _, d := range dirs {
		side.Runs = append(side.Runs, d)
		id := results.RunIDFromDir(d)
		if err := results.CheckRunFile(d); err != nil {
			return nil, &BadRunFileError{Path: filepath.Join(d, results.RunFile), Problem: err.Error()}
		}
		if info := results.ReadRunInfo(d, w.Warn); info != nil {
			if err := checkRunFile(d, info); err != nil {
				return nil, err
			}
			infos = append(infos, info)
			if info.RunID != "" {
				id = info.RunID
			}
			if info.Interrupted {
				w.Warn(fmt.Errorf("%s: the run was interrupted (Ctrl-C or SIGTERM): %s", d, interruptedCut(info)))
			}
			if info.Error != "" {
				failed = append(failed, fmt.Sprintf("%s: the run failed: %s", d, info.Error))
			}
			writes = append(writes, info.WriteScenarios...)
			if side.ServerVersion == "" {
				side.ServerVersion, side.Flavor = info.ServerVersion, string(info.Flavor)
				first = info
			} else if side.ServerVersion != info.ServerVersion {
				w.Warn(fmt.Errorf("%s: server version %s differs from %s in the same side", d, info.ServerVersion, side.ServerVersion))
			}
		}
		side.RunIDs = append(side.RunIDs, id)
		before := acc.executions()
		if err := acc.readRun(d, w.Warn); err != nil {
			return nil, err
		}
		if acc.executions() == before {
			empty = append(empty, d)
		}
		p, err := results.ReadPlans(d, w.Warn)
		if err != nil {
			return nil, err
		}
		plans = append(plans, p...)
		ws, err := results.ReadWork(d, w.Warn)
		if err != nil {
			return nil, err
		}
		samples = append(samples, ws...)
	}
	side.Files = acc.files
	side.Rounds = len(dirs)
	side.Executions = acc.executions()
	var succeeded int64
	for _, a := range acc.scenarios {
		succeeded += a.m.Executions - a.m.Errors
		side.Retries += a.m.Retries
		side.Conflicts += a.m.Conflicts
		side.FailedCommits += a.m.FailedCommits
	}
	if side.Executions == 0 {
		return nil, &NoExecutionsError{Side: name, Dirs: dirs, Failed: failed, Cut: acc.cut.describe()}
	}
	side.NoSuccess = succeeded == 0
	side.WarningsCounted = len(infos) == len(dirs)
	for _, info := range infos {
		side.WarningsCounted = side.WarningsCounted && info.WarningsCounted
	}
	if len(empty) > 0 {
		w.Warn(fmt.Errorf("%s: no readable executions in %s: a round that recorded nothing counts for no scenario",
			name, strings.Join(empty, ", ")))
	}
	sd := &Side{acc: acc, cat: newPlanCatalog(first, plans), writes: writes, info: first, infos: infos, work: samples,
		warningsCounted: side.WarningsCounted}
	if first != nil {
		sd.notReached = stalledAhead(first.Scenarios, func(name string) bool { return acc.scenarios[name] != nil }, acc.cut)
	}
	return sd, nil
}

// Info is the run.json of the side's first run folder; nil when it has none.
func (d *Side) Info() *results.Run { return d.info }

// Infos are the run.json files of every run folder of the side that has one.
func (d *Side) Infos() []*results.Run { return d.infos }

// Work are the work samples of every run folder of the side.
func (d *Side) Work() []results.Work { return d.work }

// Writes are the scenarios that modified data in any run of the side.
func (d *Side) Writes() []string { return d.writes }

// Cut is how many statements of the side were cut at the end, and the
// longest any of them had run.
func (d *Side) Cut() (n, longestNs int64) { return d.acc.cut.total() }
