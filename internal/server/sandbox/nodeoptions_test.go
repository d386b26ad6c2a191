package sandbox

import (
	"reflect"
	"strings"
	"testing"

	"github.com/joinbench/joinbench/internal/usage"
)

func TestParseNodeOptions(t *testing.T) {
	got, err := parseNodeOptions([]string{"node3:innodb_flush_log_at_trx_commit=1", "2:--innodb-buffer-pool-size=64M", "node3: skip-log-bin"}, 3)
	want := map[string][]string{
		"node3": {"--innodb_flush_log_at_trx_commit=1", "--skip-log-bin"},
		"node2": {"--innodb-buffer-pool-size=64M"},
	}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("%v, %v; want %v", got, err, want)
	}
	for spec, msg := range map[string]string{
		"innodb_flush_log_at_trx_commit=1":     "give the node",
		"--innodb-buffer-pool-size=1G":         "give the node",
		"node4:innodb_flush_log_at_trx_commit": "node1 to node3",
		"0:x=1":                                "node1 to node3",
		"node3:":                               "give the node",
		"primary:x=1":                          "no node",
	} {
		if _, err := parseNodeOptions([]string{spec}, 3); err == nil || !usage.Is(err) || !strings.Contains(err.Error(), msg) {
			t.Errorf("%s: %v, want a usage error saying %q", spec, err, msg)
		}
	}
}

// A node's own options come last in its option file, after a comment
// saying whose they are, so that they win over the same option set for
// every node.
func TestOptionFileWithTheNodesOwn(t *testing.T) {
	got := optionFile([]string{"--innodb-flush-log-at-trx-commit=2", "--port=3307"}, "--innodb_flush_log_at_trx_commit=1")
	common, own := strings.Index(got, "innodb-flush-log-at-trx-commit=2"), strings.Index(got, "innodb_flush_log_at_trx_commit=1")
	comment := strings.Index(got, "# This node's own options")
	if common < 0 || own < 0 || comment < 0 || !(common < comment && comment < own) || own > strings.Index(got, "[sst]") {
		t.Errorf("option file:\n%s", got)
	}
}

// Options given replace a node's, those of nodes not named are kept.
func TestSetNodeOptionsKeepsTheOthers(t *testing.T) {
	c := fakeCluster(t, 3)
	c.Nodes[0].Options = []string{"--a=1"}
	c.Nodes[2].Options = []string{"--c=1"}
	if err := c.setNodeOptions([]string{"node3:c=2", "node3:d"}); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(c.Nodes[0].Options, []string{"--a=1"}) || c.Nodes[1].Options != nil ||
		!reflect.DeepEqual(c.Nodes[2].Options, []string{"--c=2", "--d"}) {
		t.Errorf("options %v %v %v", c.Nodes[0].Options, c.Nodes[1].Options, c.Nodes[2].Options)
	}
}
