package render

import (
	"strings"
	"testing"

	"github.com/joinbench/joinbench/analysis/stall"
)

func TestActionsTableShowsPeakExtraDisk(t *testing.T) {
	copied := int64(48_000_000)
	costs := []stall.Cost{{Action: 1, Step: 1, Kind: "exec", Node: "node2", Outcome: "ok", Endpoints: []stall.EndpointCost{
		{Endpoint: "h:1", PeakExtraDiskBytes: &copied}, {Endpoint: "h:2"}}}}
	got := string(actionsTable(costs, func(ep string) string { return ep }))
	for _, want := range []string{"<th>peak extra disk MB</th>", "<td>48.0</td></tr>", "<td>-</td></tr>"} {
		if !strings.Contains(got, want) {
			t.Errorf("actions table lacks %q:\n%s", want, got)
		}
	}
}
