package compare

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/joinbench/joinbench/results"
)

// AANote is the note of a comparison whose two sides ran on the same
// server, "" otherwise: the same endpoints, seen from the same client, on
// the same server version. When they also ran with the same settings
// (server variables) on the same data (the digests of the tables'
// contents and indexes each run took when it started), nothing differs
// between the sides but the noise, so any verdict but "no change" is the
// noise's: an A/A comparison. Otherwise the note names what differs, and
// does not call it one.
func AANote(base, cand *results.Run) string {
	if base == nil || cand == nil || len(base.Endpoints) == 0 || base.ClientHost == "" ||
		!slices.Equal(base.Endpoints, cand.Endpoints) || base.ClientHost != cand.ClientHost || base.ServerVersion != cand.ServerVersion {
		return ""
	}
	server := strings.Join(base.Endpoints, ", ")
	if diffs := aaDifferences(base, cand); len(diffs) > 0 {
		return fmt.Sprintf("the base and the candidate ran on the same server (%s), but not as an A/A comparison: %s",
			server, strings.Join(diffs, "; "))
	}
	return fmt.Sprintf("the base and the candidate ran on the same server (%s): an A/A comparison, where nothing differs between the sides "+
		"but the noise of this setup (--calibrate records it)", server)
}

// aaDifferences names what differs between two runs on one server: the
// settings, the data, the indexes.
func aaDifferences(base, cand *results.Run) []string {
	var out []string
	if hb, hc := heldBack(base), heldBack(cand); hb != hc {
		out = append(out, fmt.Sprintf("the candidate's answers were held back %s of their server's time on purpose, the base's %s (ab --candidate-slow)",
			PercentText(hc), PercentText(hb)))
	}
	var vars []string
	for _, k := range slices.Sorted(maps.Keys(base.ServerVars)) {
		if v, ok := cand.ServerVars[k]; ok && v != base.ServerVars[k] {
			vars = append(vars, fmt.Sprintf("%s %s vs %s", k, base.ServerVars[k], v))
		}
	}
	if len(vars) > 0 {
		out = append(out, "settings differ ("+strings.Join(vars, ", ")+")")
	}
	bd, cd := base.Dataset, cand.Dataset
	if bd == nil || cd == nil {
		return append(out, "the data are not recorded on both sides (tables not made by joinbench prepare), so they cannot be told the same")
	}
	var differ *DatasetsDiffer
	var modified *DataModified
	switch err := SameDataset("the base", "the candidate", bd, cd); {
	case errors.As(err, &differ):
		out = append(out, "the data differ ("+strings.Join(differ.Differences, "; ")+")")
	case errors.As(err, &modified) && len(modified.Differences) > 0:
		out = append(out, "the data differ when each started ("+strings.Join(modified.Differences, "; ")+")")
	case errors.As(err, &modified):
		out = append(out, "a sample of the data's rows differs")
	case bd.Contents == nil || cd.Contents == nil:
		out = append(out, "the contents of the data are not digested on both sides, so they cannot be told the same")
	}
	if t := IndexesDiffer(bd.Contents, cd.Contents); len(t) > 0 {
		out = append(out, "the indexes of "+strings.Join(t, ", ")+" differ")
	}
	return out
}

// heldBack is the share of its server's time a run's answers were held
// back by (ab --candidate-slow), 0 when none.
func heldBack(r *results.Run) float64 {
	if r.Replicate == nil {
		return 0
	}
	return r.Replicate.HeldBack
}
