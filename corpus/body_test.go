package corpus

import (
	"strings"
	"testing"
)

// Behaviour the statement text shares with MySQL's lexer (sqllex), where
// the corpus's own scanner read it differently.

// `--` followed by any control character opens a comment, which is
// dropped from the SQL sent.
func TestBodyDashCommentControlCharacter(t *testing.T) {
	tmpl := compileSrc(t, hdr+"SELECT * FROM {{m}} --\x01 note\nWHERE 1", CompileOptions{Tables: 1})
	if got, want := tmpl.Queries()[0], "SELECT * FROM `main1` \nWHERE 1"; got != want {
		t.Errorf("query %q, want %q", got, want)
	}
}

func TestBodyLexicalErrors(t *testing.T) {
	tests := []struct{ name, src, pos, msg string }{
		// the server rejects a statement whose executable comment is not closed
		{"unterminated executable comment", hdr + "SELECT * FROM {{m}} /*!50100 WHERE 1", "2:21", "unterminated executable comment"},
		// MySQL's hint scanner reads quotes: a placeholder in them is inside quotes
		{"placeholder in backquotes in a hint", hdr + "SELECT /*+ BKA(`{{m}}`) */ * FROM {{m}}", "2:17", "placeholder inside a quoted identifier"},
		{"placeholder in a string in a hint", hdr + "SELECT /*+ QB_NAME('{{m}}') */ * FROM {{m}}", "2:21", "placeholder inside a quoted string"},
		{"bare ? in an executable comment", hdr + "SELECT * FROM {{m}} /*! WHERE a = ? */", "2:35", "a bare ? is not allowed"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseFile("x.sql", []byte(tc.src))
			if err == nil || !strings.HasPrefix(err.Error(), "x.sql:"+tc.pos+": ") || !strings.Contains(err.Error(), tc.msg) {
				t.Errorf("error %v, want %s: %s", err, tc.pos, tc.msg)
			}
		})
	}
}

// An unterminated quote inside a hint breaks the hint, which the server
// ignores with a warning; the statement still runs, so it is no error.
func TestBodyUnterminatedQuoteInHint(t *testing.T) {
	tmpl := compileSrc(t, hdr+"SELECT /*+ BKA({{m}}) QB_NAME('x) */ * FROM {{m}}", CompileOptions{Tables: 1})
	if got, want := tmpl.Queries()[0], "SELECT /*+ BKA(`main1`) QB_NAME('x) */ * FROM `main1`"; got != want {
		t.Errorf("query %q, want %q", got, want)
	}
}

// The content of an executable comment is SQL: its placeholders are uses.
func TestBodyExecutableComment(t *testing.T) {
	tmpl := compileSrc(t, hdr+"-- param n: int(1,1)\nSELECT * FROM {{m}} /*!50100 WHERE a = {{n}} /* c */ */", CompileOptions{Tables: 1})
	if got, want := tmpl.Queries()[0], "SELECT * FROM `main1` /*!50100 WHERE a = ?   */"; got != want {
		t.Errorf("query %q, want %q", got, want)
	}
}
