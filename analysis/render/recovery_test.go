package render

import (
	"strings"
	"testing"

	"github.com/joinbench/joinbench/analysis/stall"
)

// The recovery table names each crash action's timeline once and how
// each killed node came back, in text, Markdown and HTML; a time not
// reached reads "-".
func TestRecoveryTable(t *testing.T) {
	s := func(v float64) *float64 { return &v }
	recs := []stall.Recovery{{Action: 2, Spec: "40s@all: crash 1s", ClusterSize: 3, Crashed: 3,
		WritableSeconds: s(12.3), MinimalHASeconds: s(20.5), AllSyncedSeconds: nil,
		Nodes: []stall.NodeRecovery{
			{Node: "node1", Method: "bootstrap", WritableSeconds: s(12.3), SyncedSeconds: s(12.3)},
			{Node: "node2", Method: "ist", WritableSeconds: s(19), SyncedSeconds: s(20.5), TransferSeconds: s(4.2), Writesets: 1833},
			{Node: "node3", Method: "sst", WritableSeconds: s(30)},
		}}}
	for _, md := range []bool{false, true} {
		var b strings.Builder
		writeRecoveryText(&b, md, recs)
		out := b.String()
		for _, want := range []string{"Recovery", "2 40s@all: crash 1s", "3 of 3", "12.3", "20.5", "ist 4.2s 1833 write-sets", "node3"} {
			if !strings.Contains(out, want) {
				t.Errorf("markdown %v: no %q in\n%s", md, want, out)
			}
		}
		if strings.Count(out, "3 of 3") != 1 {
			t.Errorf("markdown %v: the action's timeline more than once:\n%s", md, out)
		}
	}
	h := string(recoveryTable(recs))
	for _, want := range []string{"<table", "<td>node2</td>", "<td>ist 4.2s 1833 write-sets</td>", "<td>-</td>"} {
		if !strings.Contains(h, want) {
			t.Errorf("HTML: no %q in\n%s", want, h)
		}
	}
	if recoveryTable(nil) != "" {
		t.Error("HTML table without a crash")
	}
}
