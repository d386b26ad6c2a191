package compare

import (
	"fmt"
	"slices"
	"strings"
)

// comparePlans compares the sets of plan hashes the sides' successful
// executions used; when they differ, PlanDiff shows each side's most used
// plan, line by line.
func comparePlans(sc *ScenarioComparison, b, c *Observed) {
	sc.BasePlans = sortedPlanHashes(b.Plans)
	sc.CandidatePlans = sortedPlanHashes(c.Plans)
	if len(sc.BasePlans) == 0 || len(sc.CandidatePlans) == 0 || slices.Equal(sc.BasePlans, sc.CandidatePlans) {
		return
	}
	sc.PlanChanged = true
	bh, ch := dominantPlan(b.Plans), dominantPlan(c.Plans)
	bt, ct := planText(b, bh), planText(c, ch)
	sc.PlanDiff = fmt.Sprintf("--- base plan %s (%d of %d)\n+++ candidate plan %s (%d of %d)\n", bh, b.Plans[bh], b.Metrics.Successes(),
		ch, c.Plans[ch], c.Metrics.Successes()) + LineDiff(bt, ct)
}

// planText is the readable form of a side's plan, or says it is missing.
func planText(o *Observed, hash string) string {
	t := ""
	if o.PlanText != nil {
		t = o.PlanText(hash)
	}
	if t == "" {
		t = "(plan " + hash + " not in plans.parquet)"
	}
	return t
}

func sortedPlanHashes(plans map[string]int64) []string {
	var out []string
	for h := range plans {
		out = append(out, h)
	}
	slices.Sort(out)
	return out
}

// dominantPlan is the plan most executions used (the first hash of a tie).
func dominantPlan(plans map[string]int64) string {
	best, n := "", int64(-1)
	for _, h := range sortedPlanHashes(plans) {
		if plans[h] > n {
			best, n = h, plans[h]
		}
	}
	return best
}

// LineDiff is a unified-style diff of two texts by lines ("  ", "- ",
// "+ " prefixes), from a longest common subsequence. Plans are short, so
// the quadratic table is fine; very long inputs fall back to showing both.
func LineDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	var sb strings.Builder
	if len(al)*len(bl) > 4_000_000 {
		for _, l := range al {
			sb.WriteString("- " + l + "\n")
		}
		for _, l := range bl {
			sb.WriteString("+ " + l + "\n")
		}
		return sb.String()
	}
	lcs := lcsTable(al, bl)
	n, m := len(al), len(bl)
	i, j := 0, 0
	for i < n || j < m {
		switch {
		case i < n && j < m && al[i] == bl[j]:
			sb.WriteString("  " + al[i] + "\n")
			i++
			j++
		case i < n && (j == m || lcs[i+1][j] >= lcs[i][j+1]):
			sb.WriteString("- " + al[i] + "\n")
			i++
		default:
			sb.WriteString("+ " + bl[j] + "\n")
			j++
		}
	}
	return sb.String()
}

// lcsTable holds at [i][j] the length of the longest common subsequence
// of a[i:] and b[j:].
func lcsTable(a, b []string) [][]int32 {
	n, m := len(a), len(b)
	lcs := make([][]int32, n+1)
	for i := range lcs {
		lcs[i] = make([]int32, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	return lcs
}
