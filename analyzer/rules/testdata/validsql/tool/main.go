// Command validsql builds and measures the valid-SQL set of the lint
// syntax rule: statements a MariaDB server accepted, taken from its own
// regression suite, which `joinbench lint` must not report as errors.
//
//	go run ./analyzer/rules/testdata/validsql/tool extract -o validsql.jsonl
//	go run ./analyzer/rules/testdata/validsql/tool lint -in validsql.jsonl -bin bin/joinbench -o results.jsonl
//	go run ./analyzer/rules/testdata/validsql/tool probe -in validsql.jsonl -dsn 'root@tcp(127.0.0.1:3306)/test'
//	go run ./analyzer/rules/testdata/validsql/tool tidb -in validsql.jsonl -only results.jsonl
//	go run ./analyzer/rules/testdata/validsql/tool preprocess -in validsql.jsonl -only results.jsonl
//	go run ./analyzer/rules/testdata/validsql/tool sample -results results.jsonl -dir DIR
//
// It lives under testdata so that it is never built into joinbench (nor
// by go build ./... and go vet ./...: vet it by its path). ../README.md
// says what it found.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/joinbench/joinbench/analyzer/rules/testdata/validsql/suite"
)

func main() {
	cmds := map[string]func([]string) error{
		"extract":    extract,
		"lint":       lintCmd,
		"probe":      probe,
		"sample":     sample,
		"tidb":       tidbCmd,
		"preprocess": preprocessCmd,
	}
	if len(os.Args) < 2 || cmds[os.Args[1]] == nil {
		fmt.Fprintln(os.Stderr, "usage: validsql extract|lint|probe|tidb|preprocess|sample [flags] (-h for a command's flags)")
		os.Exit(2)
	}
	if err := cmds[os.Args[1]](os.Args[2:]); err != nil {
		fmt.Fprintln(os.Stderr, "validsql:", err)
		os.Exit(1)
	}
}

func newFlagSet(name, usage, doc string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ExitOnError)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "usage: validsql %s\n\n%s\n\n", usage, doc)
		fs.PrintDefaults()
	}
	return fs
}

// create opens path for writing; "-" is standard output.
func create(path string) (io.Writer, func() error, error) {
	if path == "-" {
		return os.Stdout, func() error { return nil }, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, nil, err
	}
	return f, f.Close, nil
}

// readStatements reads the set the extract command wrote, or a folder of
// .sql files of one statement each (a header of -- lines, then the
// statement).
func readStatements(path string) ([]Statement, error) {
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return readFolder(path)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []Statement
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		var s Statement
		if err := json.Unmarshal(sc.Bytes(), &s); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		out = append(out, s)
	}
	return out, sc.Err()
}

func readAll(path string) ([]byte, error) { return os.ReadFile(path) }

func readFolder(dir string) ([]Statement, error) {
	names, err := filepath.Glob(filepath.Join(dir, "*.sql"))
	if err != nil {
		return nil, err
	}
	sort.Strings(names)
	var out []Statement
	for _, n := range names {
		b, err := os.ReadFile(n)
		if err != nil {
			return nil, err
		}
		lines := strings.Split(string(b), "\n")
		i := 0
		for i < len(lines) && (strings.HasPrefix(lines[i], "--") || strings.TrimSpace(lines[i]) == "") {
			i++
		}
		q := strings.TrimSuffix(strings.TrimSpace(strings.Join(lines[i:], "\n")), ";")
		kind := "select"
		if _, k, ok := suite.DML(q); ok {
			kind = k
		}
		out = append(out, Statement{ID: filepath.Base(n), File: n, Line: i + 1, Kind: kind, SQL: q})
	}
	return out, nil
}
