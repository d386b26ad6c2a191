package ddl

import "testing"

// Cases where the schema splitter's own scanner, before sqllex, read SQL
// differently from MySQL.

// `--` followed by any control character opens a comment; before, the
// comment ran into the next statement and hid its CREATE TABLE.
func TestSplitDashCommentControlCharacters(t *testing.T) {
	for _, c := range []string{"\f", "\v", "\x01"} {
		s, err := ParseSchema("--" + c + "note; x\nCREATE TABLE t (id INT);")
		if err != nil {
			t.Fatalf("%q: %v", c, err)
		}
		if s.Table("t") == nil {
			t.Errorf("--%q comment: table t not found", c)
		}
	}
}

// A hint comment before a statement is a plain comment to the server.
func TestSplitHintBeforeStatement(t *testing.T) {
	s, err := ParseSchema("/*+ generated */ CREATE TABLE t (id INT);")
	if err != nil {
		t.Fatal(err)
	}
	if s.Table("t") == nil {
		t.Error("table t after a hint comment not found")
	}
}

// A hint ends at the first */: a quote inside it opens no string.
func TestSplitQuoteInsideHint(t *testing.T) {
	got := splitStatements("SELECT /*+ it's */ 1; SELECT 2")
	if len(got) != 2 || got[1].text != "SELECT 2" {
		t.Errorf("statements %+v, want 2", got)
	}
}

// Every white space byte MySQL skips (form feed, vertical tab too) comes
// before the statement's position.
func TestSplitPositionAfterFormFeed(t *testing.T) {
	got := splitStatements("\f\vSELECT 1")
	if len(got) != 1 || got[0].line != 1 || got[0].col != 3 {
		t.Errorf("statements %+v, want SELECT 1 at 1:3", got)
	}
}
