package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// finding is the part of a `joinbench lint --format json` diagnostic the
// measure needs.
type finding struct {
	Path     string `json:"path"`
	Offset   int    `json:"offset"`
	Severity string `json:"severity"`
	Rule     string `json:"rule"`
	Message  string `json:"message"`
}

// result is one statement's outcome: its first syntax error, if any, and
// the construct it was put down to.
type result struct {
	Statement
	Offset    int    `json:"offset"` // in SQL; -1 without a syntax error
	Message   string `json:"message,omitempty"`
	Construct string `json:"construct,omitempty"`
}

// header is what each scenario file starts with; the statement follows.
func header(i int, s Statement) string {
	return fmt.Sprintf("-- scenario: q%05d\n-- description: %s\n", i, s.ID)
}

func lintCmd(args []string) error {
	fs := newFlagSet("lint", "lint -in FILE -bin PATH [-flavor NAME] [-dsn DSN] [-o RESULTS] [-examples N]",
		"Writes each statement as a scenario file and runs `joinbench lint --format json` over them all, as a pre-commit hook would; then counts the statements with a syntax error and puts each down to a construct.")
	in := fs.String("in", "", "the statements (extract's output)")
	bin := fs.String("bin", "bin/joinbench", "the joinbench binary")
	flavor := fs.String("flavor", "", "lint --flavor")
	dsn := fs.String("dsn", "", "lint --dsn (a database the statements' names need not exist in)")
	dir := fs.String("dir", "", "folder for the scenario files (default: a temporary one, removed)")
	out := fs.String("o", "", "write every statement with its outcome here, as JSON lines")
	examples := fs.Int("examples", 0, "print up to N statements of each construct")
	if err := fs.Parse(args); err != nil {
		return err
	}
	stmts, err := readStatements(*in)
	if err != nil {
		return err
	}
	if *dir == "" {
		d, err := os.MkdirTemp("", "validsql-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(d)
		*dir = d
	}
	byPath := map[string]int{}
	for i, s := range stmts {
		p := filepath.Join(*dir, fmt.Sprintf("q%05d.sql", i))
		if err := os.WriteFile(p, []byte(header(i, s)+s.SQL+"\n"), 0o644); err != nil {
			return err
		}
		byPath[p] = i
	}
	cmd := []string{"lint", "--no-builtin", "--format", "json"}
	if *flavor != "" {
		cmd = append(cmd, "--flavor", *flavor)
	}
	if *dsn != "" {
		cmd = append(cmd, "--dsn", *dsn)
	}
	cmd = append(cmd, *dir)
	var stdout, stderr bytes.Buffer
	c := exec.Command(*bin, cmd...)
	c.Stdout, c.Stderr = &stdout, &stderr
	t0 := time.Now()
	err = c.Run()
	wall := time.Since(t0)
	if ee, ok := err.(*exec.ExitError); err != nil && (!ok || ee.ExitCode() != 1) {
		return fmt.Errorf("%s %s: %v: %s", *bin, strings.Join(cmd, " "), err, stderr.String())
	}
	var diags []finding
	if err := json.Unmarshal(stdout.Bytes(), &diags); err != nil {
		return fmt.Errorf("lint output: %w", err)
	}
	res := make([]result, len(stmts))
	for i, s := range stmts {
		res[i] = result{Statement: s, Offset: -1}
	}
	errorsByRule := map[string]int{}
	filesByRule := map[string]map[int]bool{}
	for _, d := range diags {
		i, ok := byPath[d.Path]
		if !ok || d.Severity != "error" {
			continue
		}
		errorsByRule[d.Rule]++
		if filesByRule[d.Rule] == nil {
			filesByRule[d.Rule] = map[int]bool{}
		}
		filesByRule[d.Rule][i] = true
		if d.Rule == "syntax" && res[i].Offset < 0 {
			res[i].Offset = d.Offset - len(header(i, stmts[i]))
			res[i].Message = d.Message
			res[i].Construct = classify(stmts[i].SQL, res[i].Offset, d.Message)
		}
	}
	fmt.Printf("%d statements, lint %s in %.2f s\n", len(stmts), strings.Join(cmd[:len(cmd)-1], " "), wall.Seconds())
	var rules []string
	for r := range errorsByRule {
		rules = append(rules, r)
	}
	sort.Strings(rules)
	for _, r := range rules {
		fmt.Printf("  %-20s error in %5d statements (%.2f%%)\n", r, len(filesByRule[r]), 100*float64(len(filesByRule[r]))/float64(len(stmts)))
	}
	printConstructs(res, *examples)
	if *out != "" {
		return writeResults(*out, res)
	}
	return nil
}

// printConstructs prints the syntax errors by construct, most frequent
// first, with up to n examples each.
func printConstructs(res []result, n int) {
	count := map[string][]result{}
	for _, r := range res {
		if r.Offset >= 0 {
			count[r.Construct] = append(count[r.Construct], r)
		}
	}
	var names []string
	for c := range count {
		names = append(names, c)
	}
	sort.Slice(names, func(i, j int) bool {
		if len(count[names[i]]) != len(count[names[j]]) {
			return len(count[names[i]]) > len(count[names[j]])
		}
		return names[i] < names[j]
	})
	fmt.Println("syntax errors by construct:")
	for _, c := range names {
		fmt.Printf("  %5d  %s\n", len(count[c]), c)
		for k, r := range count[c] {
			if k >= n {
				break
			}
			fmt.Printf("         %s at %d: %s\n           %s\n", r.ID, r.Offset, r.Message, oneLine(r.SQL, 300))
		}
	}
}

func writeResults(path string, res []result) error {
	w, closeOut, err := create(path)
	if err != nil {
		return err
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for _, r := range res {
		if err := enc.Encode(r); err != nil {
			return err
		}
	}
	return closeOut()
}

func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > n {
		s = s[:n] + "..."
	}
	return s
}
