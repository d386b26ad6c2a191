package experiment

import (
	"fmt"
	"html/template"
	"strings"

	"github.com/joinbench/joinbench/analysis/render/plot"
	"github.com/joinbench/joinbench/analysis/stall"
)

// The phases of a node's recovery, in the order they come, as the
// recovery figure colours them.
const (
	phaseDown     = "down: killed, its position recovered"
	phaseStarting = "starting, joining"
	phaseIST      = "IST"
	phaseSST      = "SST"
	phaseWritable = "writable, not yet Synced"
)

var recoveryKinds = []plot.SpanKind{{Name: phaseDown, Color: "#c53030"}, {Name: phaseStarting, Color: "#a0aec0"},
	{Name: phaseIST, Color: "#dd6b20"}, {Name: phaseSST, Color: "#6b46c1"}, {Name: phaseWritable, Color: "#ecc94b"}}

// recoveryBars are a bar per node of every crash, its phases in order
// from the crash: down until started again, starting (and joining) until
// its state transfer, the transfer (IST or SST), starting again until
// writable, then writable until Synced, which is marked. A time the
// recovery did not reach ends the bar, and the bar says so.
func recoveryBars(crashes []stall.Recovery) []plot.Bar {
	var out []plot.Bar
	for _, c := range crashes {
		for _, n := range c.Nodes {
			bar := plot.Bar{Label: c.Spec + " " + n.Node}
			at := 0.0
			add := func(to *float64, kind string) {
				if to == nil || *to < at {
					return
				}
				bar.Spans = append(bar.Spans, plot.Span{From: at, To: *to, Kind: kind,
					Title: fmt.Sprintf("%s, %s: %s from %.1f to %.1f s after the crash (%.1f s)", c.Spec, n.Node, kind, at, *to, *to-at)})
				at = *to
			}
			add(n.StartedSeconds, phaseDown)
			if n.TransferStartSeconds != nil && n.TransferSeconds != nil {
				add(n.TransferStartSeconds, phaseStarting)
				end := *n.TransferStartSeconds + *n.TransferSeconds
				add(&end, map[bool]string{true: phaseSST, false: phaseIST}[strings.EqualFold(n.Method, "sst")])
			}
			add(n.WritableSeconds, phaseStarting)
			add(n.SyncedSeconds, phaseWritable)
			switch {
			case n.WritableSeconds == nil:
				bar.Note = "never writable"
			case n.SyncedSeconds == nil:
				bar.Note = "never Synced"
			default:
				bar.Marks = append(bar.Marks, plot.Mark{At: *n.SyncedSeconds, Title: fmt.Sprintf("%s Synced %.1f s after the crash (%s)", n.Node, *n.SyncedSeconds, n.TransferText())})
				bar.Note = n.Method
			}
			out = append(out, bar)
		}
	}
	return out
}

// recoveryFigure draws the crashes' timelines, a bar per node brought
// back.
func recoveryFigure(crashes []stall.Recovery) Figure {
	svg := plot.Spans{Title: "each node's recovery, in seconds after the crash", XLabel: "seconds after the SIGKILL", XUnit: "s",
		Kinds: recoveryKinds, Bars: recoveryBars(crashes), W: 900}.SVG()
	return Figure{Caption: "A bar per node brought back, from the crash: down until it was started again on its recovered position, starting and joining, " +
		"its state transfer (IST: the missing write-sets from a donor's cache, SST: a full copy), then writable until Synced (the black tick). " +
		"Point at a phase for its times.", SVG: template.HTML(svg)}
}
