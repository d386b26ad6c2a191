package main

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

func sample(args []string) error {
	fs := newFlagSet("sample", "sample -results FILE -dir DIR [-per N] [-ok N]",
		"Writes a sample of the set as one .sql file per statement: up to -per statements of every construct lint rejects, and -ok statements it reads, spread over the tests and kinds; each file names the test and line it comes from.")
	results := fs.String("results", "", "lint -o output (the statements with their outcome)")
	dir := fs.String("dir", "", "output folder (its .sql files are replaced); the set is not kept in the repository (README: Licence)")
	per := fs.Int("per", 8, "statements per rejected construct")
	ok := fs.Int("ok", 250, "statements lint reads today")
	maxLen := fs.Int("max-len", 1200, "leave out statements longer than this many bytes")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *dir == "" {
		return fmt.Errorf("sample: give -dir")
	}
	res, err := readResults(*results)
	if err != nil {
		return err
	}
	sort.Slice(res, func(i, j int) bool { return res[i].ID < res[j].ID })
	byConstruct := map[string][]result{}
	var passing []result
	for _, r := range res {
		if len(r.SQL) > *maxLen {
			continue
		}
		if r.Offset >= 0 {
			byConstruct[r.Construct] = append(byConstruct[r.Construct], r)
		} else {
			passing = append(passing, r)
		}
	}
	old, _ := filepath.Glob(filepath.Join(*dir, "*.sql"))
	for _, f := range old {
		if err := os.Remove(f); err != nil {
			return err
		}
	}
	if err := os.MkdirAll(*dir, 0o755); err != nil {
		return err
	}
	n := 0
	for c, rs := range byConstruct {
		for k, r := range spread(rs, *per) {
			name := fmt.Sprintf("%s-%02d.sql", constructSlug(c), k+1)
			if err := writeSample(filepath.Join(*dir, name), r, c); err != nil {
				return err
			}
			n++
		}
	}
	for k, r := range spread(passing, *ok) {
		name := fmt.Sprintf("ok-%s-%03d.sql", r.Kind, k+1)
		if err := writeSample(filepath.Join(*dir, name), r, ""); err != nil {
			return err
		}
		n++
	}
	fmt.Fprintf(os.Stderr, "%d files in %s\n", n, *dir)
	return nil
}

// spread picks n of rs at even intervals (all when there are fewer), so
// that a sample of a sorted set spans its tests.
func spread(rs []result, n int) []result {
	if len(rs) <= n {
		return rs
	}
	out := make([]result, n)
	for i := range out {
		out[i] = rs[i*len(rs)/n]
	}
	return out
}

func writeSample(path string, r result, construct string) error {
	var b strings.Builder
	// Capitalised, these lines are comments to the scenario loader, not
	// header keys.
	fmt.Fprintf(&b, "-- Origin: MariaDB 10.11 mysql-test %s (GPL-2.0)\n", r.ID)
	if construct != "" {
		fmt.Fprintf(&b, "-- Construct: %s\n", construct)
	}
	b.WriteString(r.SQL)
	b.WriteString("\n")
	return os.WriteFile(path, []byte(b.String()), 0o644)
}
