// Package suite extracts valid statements from MariaDB's regression
// suite (Debian package mariadb-test-data): the DML its mysqltest scripts
// send and its recorded results show the server accepted. The analyzer's
// tests lint them; the validsql tool (../tool) measures and probes them.
//
// It lives under testdata: never built into joinbench, and left out of
// go build ./... and go vet ./... (vet it by its path).
package suite

import (
	"fmt"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// Root is where Debian's mariadb-test-data installs the suite.
const Root = "/usr/share/mysql/mysql-test"

// Statement is one valid statement of the set (one JSON object a line in
// the tool's files).
type Statement struct {
	ID   string `json:"id"`   // file:line, unique in the set
	File string `json:"file"` // the script it comes from, relative to the suite root
	Line int    `json:"line"`
	Test string `json:"test"` // the .test whose .result shows it accepted
	Kind string `json:"kind"` // select, update, delete, insert-select
	// Explain is set when the suite ran it under EXPLAIN or ANALYZE,
	// which this set leaves off.
	Explain bool   `json:"explain,omitempty"`
	SQL     string `json:"sql"`
}

// DefaultTests are the main-suite tests about joins and the statements
// around them: joins (outer, nested, join cache), subqueries and
// semi-joins, derived tables and views, CTEs, window functions, multi-table
// UPDATE and DELETE, and the SELECT, GROUP BY, ORDER BY, UNION tests.
const DefaultTests = `^(.*join.*|.*subselect.*|.*subq.*|derived.*|.*cte.*|win|win_.*|multi_update.*|select.*|view|view_.*|derived_view|update.*|delete.*|insert_select|having.*|group_by.*|group_min_max.*|order_by.*|union.*|except.*|intersect.*|table_elim.*|tvc|opt_tvc|fulltext.*|explain_non_select|limit_rows_examined|selectivity.*|range.*|index_merge.*|func_group.*|distinct.*|null.*|case|func_like|single_delete_update.*|update_use_source|delete_use_source|delete_returning|myisam_explain_non_select_all)$`

// Counts say how the set was drawn from the suite.
type Counts struct {
	Tests    int // tests read (with a recorded result)
	Sent     int // statements their scripts send
	Accepted int // of those, accepted by the server
	Kept     int // of those, distinct DML a scenario could hold
}

// Extract reads the mysqltest scripts of the main tests of the suite at
// root whose names match tests (a regexp on the name without .test) and
// returns the DML statements the server accepted: echoed in the .result
// file with no error after them, and not under --error. Statements are
// distinct on white space.
func Extract(root, tests string) ([]Statement, Counts, error) {
	var n Counts
	re, err := regexp.Compile(tests)
	if err != nil {
		return nil, n, fmt.Errorf("tests: %w", err)
	}
	names, err := filepath.Glob(filepath.Join(root, "main", "*.test"))
	if err != nil {
		return nil, n, err
	}
	if len(names) == 0 {
		return nil, n, fmt.Errorf("no tests in %s/main (install mariadb-test-data)", root)
	}
	sort.Strings(names)
	seen, ids := map[string]bool{}, map[string]bool{}
	var out []Statement
	for _, path := range names {
		base := strings.TrimSuffix(filepath.Base(path), ".test")
		if !re.MatchString(base) {
			continue
		}
		log, err := readResultLog(strings.TrimSuffix(path, ".test") + ".result")
		if err != nil {
			continue // a test without a recorded result proves nothing
		}
		n.Tests++
		r := newScriptReader(root)
		rel := filepath.Join("main", base+".test")
		if err := r.readFile(rel); err != nil {
			return nil, n, err
		}
		for _, c := range r.out {
			n.Sent++
			if c.ExpectErr || !log.accepted(c.Echo) {
				continue
			}
			n.Accepted++
			stmt, kind, ok := DML(c.SQL)
			if !ok {
				continue
			}
			key := strings.Join(strings.Fields(stmt), " ")
			if seen[key] {
				continue
			}
			seen[key] = true
			id := fmt.Sprintf("%s:%d", c.File, c.Line)
			for k := 2; ids[id]; k++ { // one line of a loop or a sourced file, run with other values
				id = fmt.Sprintf("%s:%d#%d", c.File, c.Line, k)
			}
			ids[id] = true
			out = append(out, Statement{ID: id, File: c.File, Line: c.Line, Test: rel,
				Kind: kind, Explain: stmt != c.SQL, SQL: stmt})
		}
	}
	n.Kept = len(out)
	return out, n, nil
}
