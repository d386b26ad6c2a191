package render

import (
	"fmt"
	"html"
	"html/template"
	"io"
	"strings"

	"github.com/joinbench/joinbench/analysis/stall"
)

// recoveryHead are the columns of the recovery table, text and HTML.
var recoveryHead = []string{"action", "killed", "first writable s", "2 of N Synced s", "all Synced s", "node", "writable s", "Synced s", "came back by"}

// recoveryRows are the table's rows: per crash action, its timeline on
// its first node's row, then how each killed node came back.
func recoveryRows(recs []stall.Recovery) [][]string {
	var out [][]string
	for _, r := range recs {
		for i, n := range r.Nodes {
			row := []string{"", "", "", "", ""}
			if i == 0 {
				row = []string{fmt.Sprintf("%d %s", r.Action, r.Spec), fmt.Sprintf("%d of %d", r.Crashed, r.ClusterSize),
					stall.SecondsText(r.WritableSeconds), stall.SecondsText(r.MinimalHASeconds), stall.SecondsText(r.AllSyncedSeconds)}
			}
			out = append(out, append(row, n.Node, stall.SecondsText(n.WritableSeconds), stall.SecondsText(n.SyncedSeconds), n.TransferText()))
		}
	}
	return out
}

// writeRecoveryText prints the recovery timeline of a run's crash
// actions.
func writeRecoveryText(w io.Writer, md bool, recs []stall.Recovery) {
	if len(recs) == 0 {
		return
	}
	heading(w, md, 2, "Recovery: seconds after the crash")
	t := &table{head: recoveryHead, right: map[int]bool{2: true, 3: true, 4: true, 6: true, 7: true}}
	for _, row := range recoveryRows(recs) {
		t.add(row...)
	}
	t.write(w, md)
	fmt.Fprintln(w)
}

// recoveryTable renders the same table in HTML.
func recoveryTable(recs []stall.Recovery) template.HTML {
	if len(recs) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString(`<h3 style="margin-top:16px">Recovery</h3><p class="muted">Seconds after the crash: the cluster's timeline (nodes not killed count as writable and Synced throughout), then how each killed node came back.</p><table class="actions"><thead><tr>`)
	for _, h := range recoveryHead {
		fmt.Fprintf(&b, "<th>%s</th>", html.EscapeString(h))
	}
	b.WriteString("</tr></thead><tbody>")
	for _, row := range recoveryRows(recs) {
		b.WriteString("<tr>")
		for _, c := range row {
			fmt.Fprintf(&b, "<td>%s</td>", html.EscapeString(c))
		}
		b.WriteString("</tr>")
	}
	b.WriteString("</tbody></table>")
	return template.HTML(b.String())
}
