package corpus

import (
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
	_, err = c.Select(Selection{Specs: []string{"simple_inner"}})
	if !strings.Contains(err.Error(), "did you mean simple_inner_forcing_order") {
		t.Errorf("unknown name: %v, want near names suggested", err)
	}
}
