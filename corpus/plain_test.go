package corpus

import (
	"strings"
	"testing"
)

// A plain SQL file's placeholders are found as the corpus finds them:
// not inside quotes or comments, inside hints and executable comments.
func TestPlainFilePlaceholders(t *testing.T) {
	src := "SELECT /*+ BKA({{a}}) */ b FROM t WHERE c = '{{x}}' AND d = {{ e }} /*! AND {{f}} */ -- {{y}}\n/* {{z}} */"
	var got []string
	for _, u := range ParsePlain("p.sql", src).Uses {
		got = append(got, src[u.Start:u.End])
	}
	if strings.Join(got, " ") != "{{a}} {{ e }} {{f}}" {
		t.Errorf("uses %q", got)
	}
}
