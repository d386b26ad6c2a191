package experiment

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/joinbench/joinbench/internal/server"
	"github.com/joinbench/joinbench/internal/server/sandbox"
	"github.com/joinbench/joinbench/internal/usage"
)

// minSlowWindow is slow-node's shortest window.
const minSlowWindow = 2 * time.Second

// check refuses, before anything on the sandbox is touched (main1
// dropped and loaded again, a setting changed), options the lesson could
// not run with: each message names the flag as the user typed it, never
// an action spec the lesson would have made of it.
func check(name string, tgt *server.Target, o Options) error {
	switch {
	case o.Repetitions < 1:
		return usage.Errorf("--repetitions %d: give 1 or more", o.Repetitions)
	case o.Threads < 1:
		return usage.Errorf("--threads %d: give 1 or more", o.Threads)
	case o.TableSize < 1:
		return usage.Errorf("--table-size %d: give 1 row or more", o.TableSize)
	case o.Window <= 0:
		return usage.Errorf("--window %s: give a positive duration, e.g. 10s", o.Window)
	case o.Warmup < 0:
		return usage.Errorf("--warmup %s: give 0 or a positive duration", o.Warmup)
	}
	if err := checkProjection(name, o); err != nil {
		return err
	}
	nodeUsed := false
	switch name {
	case "slow-node":
		nodeUsed = true
		if len(o.Percents) == 0 {
			return usage.Errorf("--percent: give at least one percentage, e.g. 20 or 0,10,21,40")
		}
		for i, p := range o.Percents {
			if p < 0 || p >= 100 {
				return usage.Errorf("--percent %s: give percentages from 0 to less than 100", strconv.FormatFloat(p, 'f', -1, 64))
			}
			if slices.Contains(o.Percents[:i], p) {
				return usage.Errorf("--percent %s: given twice; give each percentage once (--repetitions repeats them)", strconv.FormatFloat(p, 'f', -1, 64))
			}
		}
		if o.Resource != "io" && o.Resource != "cpu" {
			return usage.Errorf("--resource %q: io or cpu", o.Resource)
		}
		if o.Window < minSlowWindow {
			// The quiet stretch before the first throttle starts a second
			// after the workload's first success and ends one window
			// after it: shorter, it would hold next to nothing.
			return usage.Errorf("--window %s: slow-node needs %s at least (its quiet stretch starts a second after the workload's first execution)", o.Window, minSlowWindow)
		}
	case "hot-vs-uniform":
		if len(o.WritePercents) == 0 {
			return usage.Errorf("--write-percent: give at least one share of writes, e.g. 0,10,50")
		}
		for _, wp := range o.WritePercents {
			if _, err := mixScenarios(wp); err != nil {
				return err
			}
		}
		if err := checkRegime(tgt, o); err != nil {
			return err
		}
	case "ddl-methods", "chunked-dml":
		if o.Rows < 2 {
			return usage.Errorf("--rows %d: give 2 rows or more", o.Rows)
		}
		if o.ActionTime <= 0 {
			return usage.Errorf("--action-time %s: give a positive duration, e.g. 30s", o.ActionTime)
		}
	case "recovery":
		nodeUsed = true
		if o.ActionTime < 0 {
			return usage.Errorf("--action-time %s: give a positive duration", o.ActionTime)
		}
	case "restore":
		nodeUsed = true
		if len(o.UseMemory) == 0 {
			return usage.Errorf("--use-memory: give at least one size, e.g. 100M")
		}
		for _, m := range o.UseMemory {
			if err := sandbox.CheckUseMemory(m); err != nil {
				return err
			}
		}
		if o.PrepareReadIOPS < 0 {
			return usage.Errorf("--prepare-read-iops %d: give 0 (no cap) or more", o.PrepareReadIOPS)
		}
		if err := sandbox.CheckJoins(o.Joins); err != nil {
			return err
		}
	}
	if nodeUsed {
		var nodes []string
		for _, ep := range append(slices.Clone(tgt.Nodes), tgt.Endpoints...) {
			if ep.Node != "" && !slices.Contains(nodes, ep.Node) {
				nodes = append(nodes, ep.Node)
			}
		}
		if len(nodes) > 0 && !slices.Contains(nodes, o.Node) {
			return usage.Errorf("--node %s: the sandbox's nodes are %s", o.Node, strings.Join(nodes, ", "))
		}
	}
	return nil
}
