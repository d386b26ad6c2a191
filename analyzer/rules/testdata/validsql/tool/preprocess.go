package main

import (
	"fmt"
	"sort"

	"github.com/pingcap/tidb/pkg/parser"

	"github.com/joinbench/joinbench/internal/sqlcompat"
)

// The preprocess command measures the rewrites lint applies to a
// statement the parser rejects (package sqlcompat): how many statements
// each family's rewrites let the parser read, by construct, and whether
// they break a statement the parser read before.

func preprocessCmd(args []string) error {
	fs := newFlagSet("preprocess", "preprocess -in FILE|DIR [-only RESULTS] [-all] [-mysql]",
		"Applies lint's rewrites (internal/sqlcompat) to the statements the parser rejects (or, with -all, to every statement) and parses the result: how many each rewrite rescues, by construct, and how many statements the parser read before and no longer does.")
	in := fs.String("in", "", "the statements (extract's output, or a folder of .sql files)")
	only := fs.String("only", "", "the lint -o output, for each statement's construct")
	all := fs.Bool("all", false, "rewrite every statement, not only those the parser rejects")
	mysql := fs.Bool("mysql", false, "only the rewrites of syntax MySQL accepts too (lint's mysql flavour)")
	show := fs.Int("show", 0, "print up to N statements still rejected after the rewrites")
	if err := fs.Parse(args); err != nil {
		return err
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
			constructOf[r.ID] = r.Construct
		}
	}
	syntax := sqlcompat.MariaDB
	if *mysql {
		syntax = sqlcompat.MySQL
	}
	p := parser.New()
	type tally struct{ failed, rescued int }
	byConstruct := map[string]*tally{}
	used := map[string]int{}
	broken, changed, shown := 0, 0, 0
	for _, s := range stmts {
		_, _, err := p.Parse(s.SQL, "", "")
		if err == nil && !*all {
			continue
		}
		text := s.SQL
		rw := sqlcompat.Rewrite(s.SQL, syntax)
		if rw != nil {
			text = rw.Text
			changed++
		}
		_, _, err2 := p.Parse(text, "", "")
		if err == nil {
			if err2 != nil {
				broken++
				fmt.Printf("  broken: %s\n    %s\n", s.ID, oneLine(text, 200))
			}
			continue
		}
		c := constructOf[s.ID]
		if c == "" {
			c = "?"
		}
		t := byConstruct[c]
		if t == nil {
			t = &tally{}
			byConstruct[c] = t
		}
		t.failed++
		if err2 == nil {
			t.rescued++
			for _, m := range rw.Matches {
				used[m.Name]++
			}
		} else if shown < *show {
			shown++
			fmt.Printf("  still rejected (%s) %s: %v\n    %s\n", c, s.ID, err2, oneLine(text, 200))
		}
	}
	var cs []string
	total, rescued := 0, 0
	for c, t := range byConstruct {
		cs = append(cs, c)
		total += t.failed
		rescued += t.rescued
	}
	sort.Slice(cs, func(i, j int) bool { return byConstruct[cs[i]].failed > byConstruct[cs[j]].failed })
	fmt.Printf("%d statements, %d rejected by lint's parser, %d of them read after the rewrites; %d rewritten, %d read before and not after\n",
		len(stmts), total, rescued, changed, broken)
	for _, c := range cs {
		fmt.Printf("  %4d/%-4d %s\n", byConstruct[c].rescued, byConstruct[c].failed, c)
	}
	fmt.Println("constructs rewritten in a rescue:")
	var names []string
	for n := range used {
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool { return used[names[i]] > used[names[j]] })
	for _, n := range names {
		fmt.Printf("  %4d  %s\n", used[n], n)
	}
	return nil
}
