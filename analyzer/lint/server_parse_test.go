package lint

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/joinbench/joinbench/analyzer"
	"github.com/joinbench/joinbench/analyzer/analyzertest"
	"github.com/joinbench/joinbench/ddl"
	"github.com/joinbench/joinbench/internal/flavor"
)

// parsingServer is a live server whose parser reads every statement but
// those in rejects (text: the server's message).
type parsingServer struct {
	flavor  flavor.Name
	rejects map[string]string
	asked   []string
}

func (s *parsingServer) Schema(context.Context, string) (*ddl.Schema, flavor.Flavor, error) {
	return analyzertest.Schema(), flavor.Flavor{Name: s.flavor}, nil
}

func (s *parsingServer) CheckPlans(context.Context, []analyzer.File, *analyzer.Options, string) (*PlanReport, error) {
	return &PlanReport{}, nil
}

func (s *parsingServer) ParseStatements(_ context.Context, stmts []string) ([]analyzer.ServerParse, error) {
	s.asked = append(s.asked, stmts...)
	out := make([]analyzer.ServerParse, len(stmts))
	for i, q := range stmts {
		if msg, ok := s.rejects[q]; ok {
			out[i] = analyzer.ServerParse{Code: 1064, Message: msg}
		} else {
			out[i] = analyzer.ServerParse{Read: true}
		}
	}
	return out, nil
}

// TestServerParser: with a live server, the statements the analyzer
// cannot read, and only those, go to the server's parser; what it reads
// is no error (an info of rule server-parsed), what it rejects is a
// syntax error where its message says.
func TestServerParser(t *testing.T) {
	const head = "-- scenario: %s\n-- param m: table(main)\n"
	file := func(name, body string) analyzer.File {
		return analyzer.File{Path: name + ".sql", Source: strings.Replace(head, "%s", name, 1) + body}
	}
	files := []analyzer.File{
		file("reads", "SELECT m.id FROM {{m}} AS m WHERE m.id = 1;\n"),
		file("json_table", "SELECT jt.a FROM {{m}} AS m, JSON_TABLE(m.varchar_field, '$[*]' COLUMNS (a INT PATH '$')) AS jt;\n"),
		file("returning", "DELETE FROM {{m}} WHERE id = 1 RETURNING id;\n"),
		file("typo", "SELECT m.id FROM {{m}} AS m JION level1 ON m.l1_id = level1.id;\n"),
		file("late", "SELECT m.id FROM {{m}} AS m\nWHERE m.id = 1 LIMIT 1 LIMIT 2;\n"),
	}
	srv := &parsingServer{flavor: flavor.MySQL, rejects: map[string]string{
		"SELECT m.id FROM main1 AS m JION level1 ON m.l1_id = level1.id": "You have an error in your SQL syntax; check the manual that corresponds to your MySQL server version for the right syntax to use near 'level1 ON m.l1_id = level1.id' at line 1",
		"SELECT m.id FROM main1 AS m\nWHERE m.id = 1 LIMIT 1 LIMIT 2":    "You have an error in your SQL syntax; check the manual that corresponds to your MySQL server version for the right syntax to use near 'LIMIT 2' at line 2",
	}}
	res, err := Lint(context.Background(), files, Options{Server: srv})
	if err != nil {
		t.Fatal(err)
	}
	if len(srv.asked) != 4 {
		t.Errorf("asked the server about %d statements, want the 4 the analyzer cannot read: %q", len(srv.asked), srv.asked)
	}
	want := map[string]string{
		"json_table.sql": "3:30 info server-parsed only the server's parser read this statement (JSON_TABLE): no rule of the analyzer checked it",
		"returning.sql":  "3:32 info server-parsed only the server's parser read this statement (DELETE/INSERT ... RETURNING): no rule of the analyzer checked it",
		"typo.sql":       "3:29 error syntax syntax error near \"JION level1 ON m.l1_id = level...\": JION is not a keyword; did you mean JOIN? (the server's parser rejects it: error 1064)",
		"late.sql":       "4:24 error syntax syntax error near \"LIMIT 2;\" (the server's parser rejects it: error 1064)",
	}
	got := map[string]bool{}
	for _, d := range res.Diagnostics {
		w, ok := want[d.Path]
		line := fmt.Sprintf("%d:%d %s %s %s", d.Line, d.Col, d.Severity, d.Rule, d.Message)
		if !ok || !strings.HasPrefix(line, w) {
			t.Errorf("%s: %s\nwant %s", d.Path, line, w)
		}
		got[d.Path] = true
	}
	for p := range want {
		if !got[p] {
			t.Errorf("%s: no finding", p)
		}
	}
}
