package sandbox

import (
	"regexp"
	"strings"
	"testing"
)

// TestCheckName: a name is 1 to 64 letters, digits, '.', '_' or '-',
// starting with a letter or digit, as the pattern with the bound in it
// said.
func TestCheckName(t *testing.T) {
	bounded := regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$`)
	for _, name := range []string{"", "a", "node1", "db-8.0_x", "-a", ".a", "_a", "a b", "a/b", "é", "aé",
		strings.Repeat("a", 63), strings.Repeat("a", 64), strings.Repeat("a", 65), "a" + strings.Repeat("-", 63), "a\n"} {
		if got, want := CheckName(name) == nil, bounded.MatchString(name); got != want {
			t.Errorf("CheckName(%q) accepts: %v; want %v", name, got, want)
		}
	}
}
