package main

import (
	"fmt"
	"sort"
	"strings"

	"github.com/pingcap/tidb/pkg/parser"
	"github.com/pingcap/tidb/pkg/parser/format"
	"github.com/pingcap/tidb/pkg/parser/mysql"
	_ "github.com/pingcap/tidb/pkg/parser/test_driver"
)

// variant is a setting of the TiDB parser that lint could use instead of
// its default one (parser.New()).
type variant struct {
	name string
	set  func(*parser.Parser)
}

var variants = []variant{
	{"window functions off (rank, lead ... are names)", func(p *parser.Parser) { p.EnableWindowFunc(false) }},
	{"SetMariaDB(true)", func(p *parser.Parser) { p.SetMariaDB(true) }},
	{"sql_mode IGNORE_SPACE", func(p *parser.Parser) { p.SetSQLMode(mysql.ModeIgnoreSpace) }},
	{"sql_mode HIGH_NOT_PRECEDENCE", func(p *parser.Parser) { p.SetSQLMode(mysql.ModeHighNotPrecedence) }},
	{"sql_mode PIPES_AS_CONCAT", func(p *parser.Parser) { p.SetSQLMode(mysql.ModePipesAsConcat) }},
	{"strict double type check off", func(p *parser.Parser) { p.SetStrictDoubleTypeCheck(false) }},
}

func tidbCmd(args []string) error {
	fs := newFlagSet("tidb", "tidb (-e SQL | -in FILE [-only RESULTS])",
		"Parses statements with the TiDB parser directly, with lint's settings and with each other setting the parser offers, and says which setting reads which construct; -e parses one statement and prints it as the parser restores it.")
	e := fs.String("e", "", "one statement to parse")
	in := fs.String("in", "", "the statements (extract's output)")
	only := fs.String("only", "", "only the statements with a syntax error in this lint -o output (their construct is taken from it)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *e != "" {
		for _, v := range append([]variant{{"default", func(*parser.Parser) {}}}, variants...) {
			p := parser.New()
			v.set(p)
			fmt.Printf("%-48s %s\n", v.name+":", parseOne(p, *e))
		}
		return nil
	}
	stmts, err := readStatements(*in)
	if err != nil {
		return err
	}
	constructOf := map[string]string{}
	if *only != "" {
		res, err := readResults(*only)
		if err != nil {
			return err
		}
		for _, r := range res {
			if r.Offset >= 0 {
				constructOf[r.ID] = r.Construct
			}
		}
	}
	def := parser.New()
	failed := 0
	rescued := map[string]map[string]int{} // variant -> construct -> count
	broke := map[string]int{}              // variant -> statements lint reads that it does not
	for _, s := range stmts {
		_, _, err := def.Parse(s.SQL, "", "")
		for _, v := range variants {
			p := parser.New()
			v.set(p)
			_, _, verr := p.Parse(s.SQL, "", "")
			switch {
			case err != nil && verr == nil:
				if rescued[v.name] == nil {
					rescued[v.name] = map[string]int{}
				}
				c := constructOf[s.ID]
				if c == "" {
					c = "?"
				}
				rescued[v.name][c]++
			case err == nil && verr != nil:
				broke[v.name]++
			}
		}
		if err != nil {
			failed++
		}
	}
	fmt.Printf("%d statements, %d rejected by parser.New() (lint's parser)\n", len(stmts), failed)
	for _, v := range variants {
		n := 0
		var cs []string
		for c, k := range rescued[v.name] {
			n += k
			cs = append(cs, fmt.Sprintf("%s: %d", c, k))
		}
		sort.Strings(cs)
		fmt.Printf("  %-48s reads %3d more, rejects %3d it read\n", v.name, n, broke[v.name])
		for _, c := range cs {
			fmt.Printf("      %s\n", c)
		}
	}
	return nil
}

// parseOne parses q and returns the error or the statement restored.
func parseOne(p *parser.Parser, q string) string {
	stmts, _, err := p.Parse(q, "", "")
	if err != nil {
		return "ERROR " + err.Error()
	}
	var b strings.Builder
	for _, st := range stmts {
		if err := st.Restore(format.NewRestoreCtx(format.DefaultRestoreFlags, &b)); err != nil {
			return "restore: " + err.Error()
		}
		b.WriteString("; ")
	}
	return "ok: " + b.String()
}
