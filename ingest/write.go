package ingest

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Report is what an import did.
type Report struct {
	Read    int64 // statements read (a digest row counts its executions)
	Groups  int   // fingerprints kept after the filter
	Written []*Scenario
	// Skipped counts the statements left out, by reason; Unwritable the
	// groups that could not become scenarios, with why.
	Skipped    map[string]int64
	Unwritable []string
}

// Choose builds the scenarios of the top groups: the first top (0: all)
// of the ranking that can be written. Groups that write are left out
// unless o.Writes, and counted.
func Choose(s *Set, top int, byCount bool, o BuildOptions) *Report {
	r := &Report{Read: s.Read, Skipped: s.Skipped}
	ranked := s.Ranked(byCount)
	r.Groups = len(ranked)
	for _, g := range ranked {
		if top > 0 && len(r.Written) >= top {
			break
		}
		sc, err := Build(g, o)
		switch {
		case errors.Is(err, ErrWrite):
			r.Skipped[SkipWrite] += g.Count
		case err != nil:
			r.Unwritable = append(r.Unwritable, err.Error())
		default:
			r.Written = append(r.Written, sc)
		}
	}
	return r
}

// Write writes the scenarios and their value lists into dir (created if
// need be), replacing files of the same names.
func (r *Report) Write(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	lists := map[string][]string{}
	for _, sc := range r.Written {
		if err := os.WriteFile(filepath.Join(dir, sc.Name+".sql"), []byte(sc.Text), 0o644); err != nil {
			return err
		}
		for n, v := range sc.Lists {
			lists[n] = v
		}
	}
	for n, vals := range lists {
		text := "# values for list(" + n + "), written by joinbench import\n" + strings.Join(vals, "\n") + "\n"
		if err := os.WriteFile(filepath.Join(dir, n+".list"), []byte(text), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// Summary is the import's account on stderr: what was read, left out
// and written.
func (r *Report) Summary(dir string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "read %d statements: %d fingerprints kept, %d scenario(s) written to %s\n", r.Read, r.Groups, len(r.Written), dir)
	reasons := make([]string, 0, len(r.Skipped))
	for k := range r.Skipped {
		reasons = append(reasons, k)
	}
	sort.Slice(reasons, func(i, j int) bool {
		if r.Skipped[reasons[i]] != r.Skipped[reasons[j]] {
			return r.Skipped[reasons[i]] > r.Skipped[reasons[j]]
		}
		return reasons[i] < reasons[j]
	})
	for _, k := range reasons {
		fmt.Fprintf(&b, "  left out %d: %s\n", r.Skipped[k], k)
	}
	for _, u := range r.Unwritable {
		fmt.Fprintf(&b, "  not written: %s\n", u)
	}
	return b.String()
}
