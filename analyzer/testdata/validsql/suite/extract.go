package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// Statement is one valid statement of the set, as the extract command
// writes it (one JSON object a line).
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

// defaultTests are the main-suite tests about joins and the statements
// around them: joins (outer, nested, join cache), subqueries and
// semi-joins, derived tables and views, CTEs, window functions, multi-table
// UPDATE and DELETE, and the SELECT, GROUP BY, ORDER BY, UNION tests.
const defaultTests = `^(.*join.*|.*subselect.*|.*subq.*|derived.*|.*cte.*|win|win_.*|multi_update.*|select.*|view|view_.*|derived_view|update.*|delete.*|insert_select|having.*|group_by.*|group_min_max.*|order_by.*|union.*|except.*|intersect.*|table_elim.*|tvc|opt_tvc|fulltext.*|explain_non_select|limit_rows_examined|selectivity.*|range.*|index_merge.*|func_group.*|distinct.*|null.*|case|func_like|single_delete_update.*|update_use_source|delete_use_source|delete_returning|myisam_explain_non_select_all)$`

func extract(args []string) error {
	fs := newFlagSet("extract", "extract -suite DIR [-tests REGEXP] [-o FILE]",
		"Reads the mysqltest scripts of the suite's main folder and writes the DML statements the server accepted (echoed in the .result file and no error after them, not under --error) as JSON lines.")
	suite := fs.String("suite", "/usr/share/mysql/mysql-test", "the mysql-test folder (Debian: package mariadb-test-data)")
	tests := fs.String("tests", defaultTests, "the main/*.test files to read, a regexp on the name without .test")
	out := fs.String("o", "-", "output file")
	if err := fs.Parse(args); err != nil {
		return err
	}
	re, err := regexp.Compile(*tests)
	if err != nil {
		return fmt.Errorf("-tests: %w", err)
	}
	names, err := filepath.Glob(filepath.Join(*suite, "main", "*.test"))
	if err != nil {
		return err
	}
	sort.Strings(names)
	w, closeOut, err := create(*out)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	seen, ids := map[string]bool{}, map[string]bool{}
	var nTests, nCand, nAccepted, nKept int
	for _, path := range names {
		base := strings.TrimSuffix(filepath.Base(path), ".test")
		if !re.MatchString(base) {
			continue
		}
		log, err := readResultLog(strings.TrimSuffix(path, ".test") + ".result")
		if err != nil {
			continue // a test without a recorded result proves nothing
		}
		nTests++
		r := newScriptReader(*suite)
		rel := filepath.Join("main", base+".test")
		if err := r.readFile(rel); err != nil {
			return err
		}
		for _, c := range r.out {
			nCand++
			if c.ExpectErr || !log.accepted(c.Echo) {
				continue
			}
			nAccepted++
			stmt, kind, ok := dml(c.SQL)
			if !ok {
				continue
			}
			key := strings.Join(strings.Fields(stmt), " ")
			if seen[key] {
				continue
			}
			seen[key] = true
			nKept++
			id := fmt.Sprintf("%s:%d", c.File, c.Line)
			for n := 2; ids[id]; n++ { // one line of a loop or a sourced file, run with other values
				id = fmt.Sprintf("%s:%d#%d", c.File, c.Line, n)
			}
			ids[id] = true
			s := Statement{ID: id, File: c.File, Line: c.Line, Test: rel,
				Kind: kind, Explain: stmt != c.SQL, SQL: stmt}
			if err := enc.Encode(s); err != nil {
				return err
			}
		}
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	if err := closeOut(); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "%d tests, %d statements sent, %d accepted, %d distinct DML kept\n", nTests, nCand, nAccepted, nKept)
	return nil
}
