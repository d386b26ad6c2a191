package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"

	"github.com/joinbench/joinbench/analyzer/rules/testdata/validsql/suite"
)

// Statement is one statement of the set.
type Statement = suite.Statement

func extract(args []string) error {
	fs := newFlagSet("extract", "extract -suite DIR [-tests REGEXP] [-o FILE]",
		"Reads the mysqltest scripts of the suite's main folder and writes the DML statements the server accepted (echoed in the .result file and no error after them, not under --error) as JSON lines.")
	root := fs.String("suite", suite.Root, "the mysql-test folder (Debian: package mariadb-test-data)")
	tests := fs.String("tests", suite.DefaultTests, "the main/*.test files to read, a regexp on the name without .test")
	out := fs.String("o", "-", "output file")
	if err := fs.Parse(args); err != nil {
		return err
	}
	stmts, n, err := suite.Extract(*root, *tests)
	if err != nil {
		return err
	}
	w, closeOut, err := create(*out)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	for _, s := range stmts {
		if err := enc.Encode(s); err != nil {
			return err
		}
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	if err := closeOut(); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "%d tests, %d statements sent, %d accepted, %d distinct DML kept\n", n.Tests, n.Sent, n.Accepted, n.Kept)
	return nil
}
