package corpus

import (
	"slices"
	"strings"
	"testing"

	"github.com/joinbench/joinbench/internal/usage"
)

func TestSelect(t *testing.T) {
	c, err := LoadBuiltin()
	if err != nil {
		t.Fatal(err)
	}
	two, err := c.Select(Selection{Specs: []string{"simple_inner_pk=3", "index_updates"}})
	if err != nil || len(two) != 2 || two["simple_inner_pk"] != 3 || two["index_updates"] != 1 {
		t.Errorf("two specs: %v, %v", two, err)
	}
	all, err := c.Select(Selection{All: true, Specs: []string{"simple_inner_pk=3", "delete_inserts=0"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != len(builtinNames())-1 || all["simple_inner_pk"] != 3 || all["delete_inserts"] != 0 || all["multi_right_pk"] != 1 {
		t.Errorf("--all with two counts: %d scenarios, simple_inner_pk=%d, delete_inserts present=%v",
			len(all), all["simple_inner_pk"], all["delete_inserts"] != 0)
	}
	writes, err := c.Select(Selection{Tags: []string{"write"}})
	if err != nil {
		t.Fatal(err)
	}
	for name := range writes {
		if !strings.Contains(strings.Join(c.Get(name).Tags, ","), "write") {
			t.Errorf("--tags write selected %s, tagged %v", name, c.Get(name).Tags)
		}
	}
	for _, bad := range []Selection{
		{},
		{Tags: []string{"nosuchtag"}},
		{Specs: []string{"simple_inner_pk=-1"}},
		{Specs: []string{"simple_inner_pk=x"}},
		{Specs: []string{"simple_inner_pk=0"}},
		{Specs: []string{"simple_inner"}},
	} {
		if _, err := c.Select(bad); err == nil || !usage.Is(err) {
			t.Errorf("Select(%+v) = %v, want a user error", bad, err)
		}
	}
}

// TestLookupSuggestsByEditDistance: a mistyped name gets the scenario it
// most likely meant, by edit distance or by case, never a list of names
// that merely share a prefix.
func TestLookupSuggestsByEditDistance(t *testing.T) {
	c, err := LoadBuiltin()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ name, want string }{
		{"simpel_inner_pk", "; did you mean simple_inner_pk?"},
		{"simple_left_pk_gb", "; did you mean simple_left_pk_GB?"},
		{"simple_inner", "; did you mean simple_inner_pk?"},
		{"multi_lef_pk", "; did you mean multi_left_pk?"},
		{"nothing_like_any", " (joinbench list shows them)"},
	} {
		_, err := c.Lookup(tc.name)
		if err == nil || !usage.Is(err) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Lookup(%q) = %v, want a user error with %q", tc.name, err, tc.want)
		}
		if strings.Contains(err.Error(), ",") {
			t.Errorf("Lookup(%q) = %v, want one suggestion", tc.name, err)
		}
	}
	if _, err := c.Select(Selection{Specs: []string{"simpel_inner_pk=2"}}); err == nil || !strings.Contains(err.Error(), "did you mean simple_inner_pk?") {
		t.Errorf("--scenario simpel_inner_pk=2: %v", err)
	}
}

// TestTagged: --tags selects the scenarios carrying any of its entries, an
// entry joining tags with + those carrying all of them; an unknown tag is
// a user error naming the nearest one.
func TestTagged(t *testing.T) {
	c, err := LoadBuiltin()
	if err != nil {
		t.Fatal(err)
	}
	count := func(tags ...string) int {
		t.Helper()
		got, err := c.Tagged(tags)
		if err != nil {
			t.Fatalf("Tagged(%q): %v", tags, err)
		}
		return len(got)
	}
	carrying := func(pred func(tags []string) bool) int {
		n := 0
		for _, s := range c.Scenarios() {
			if pred(s.Tags) {
				n++
			}
		}
		return n
	}
	has := func(tags []string, t string) bool { return slices.Contains(tags, t) }
	if got, want := count("left", "multilevel"), carrying(func(ts []string) bool { return has(ts, "left") || has(ts, "multilevel") }); got != want {
		t.Errorf("--tags left,multilevel: %d scenarios, want %d (either tag)", got, want)
	}
	if got, want := count("left+multilevel"), carrying(func(ts []string) bool { return has(ts, "left") && has(ts, "multilevel") }); got != want || want == 0 {
		t.Errorf("--tags left+multilevel: %d scenarios, want %d (both tags)", got, want)
	}
	if got, want := count("write+pk", "derived"), carrying(func(ts []string) bool { return has(ts, "write") && has(ts, "pk") || has(ts, "derived") }); got != want {
		t.Errorf("--tags write+pk,derived: %d scenarios, want %d", got, want)
	}
	if got := count("inner", "left", "right", "derived", "semi_anti"); got != 38 {
		t.Errorf("--tags inner,left,right,derived,semi_anti: %d scenarios, want the 38 reads", got)
	}
	for _, tc := range []struct {
		tags []string
		want string
	}{
		{[]string{"inner", "lefft"}, `no scenario has the tag "lefft"; did you mean left?`},
		{[]string{"left+inner"}, "no scenario has these tags"},
		{[]string{"nosuchtag"}, `no scenario has the tag "nosuchtag" (joinbench list`},
	} {
		if _, err := c.Tagged(tc.tags); err == nil || !usage.Is(err) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Tagged(%q) = %v, want a user error with %q", tc.tags, err, tc.want)
		}
	}
}
