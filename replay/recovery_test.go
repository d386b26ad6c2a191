package replay

import (
	"strings"
	"testing"

	"github.com/joinbench/joinbench/analysis/stall"
)

// A single server's crash is no cluster's: no "2 of 1 Synced".
func TestRecoveryOfOneServer(t *testing.T) {
	w := 1.5
	var b strings.Builder
	writeRecoveries(&b, []stall.Recovery{{Action: 1, Spec: "1s: crash", ClusterSize: 1, Crashed: 1, WritableSeconds: &w,
		MinimalHASeconds: &w, AllSyncedSeconds: &w, Nodes: []stall.NodeRecovery{{Node: "", WritableSeconds: &w}}}})
	out := b.String()
	if strings.Contains(out, "of 1") || strings.Contains(out, "Synced") || !strings.Contains(out, "writable again") {
		t.Fatalf("single server's recovery:\n%s", out)
	}
}
