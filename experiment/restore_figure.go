package experiment

import (
	"cmp"
	"fmt"
	"html/template"
	"time"

	"github.com/joinbench/joinbench/analysis/render/plot"
	"github.com/joinbench/joinbench/internal/server/sandbox"
)

// The phases of a restore, in the order they run.
const (
	restoreBackup  = "backup (not counted)"
	restorePrepare = "prepare: redo apply"
	restoreCopy    = "copy into the data directory"
	restoreJoin    = "start and join until Synced"
	restoreRejoin  = "rejoin by SST until Synced (--join ist,sst)"
)

var restoreKinds = []plot.SpanKind{{Name: restoreBackup, Color: "#cbd5e0"}, {Name: restorePrepare, Color: "#c53030"},
	{Name: restoreCopy, Color: "#2b6cb0"}, {Name: restoreJoin, Color: "#2f855a"}, {Name: restoreRejoin, Color: "#d69e2e"}}

// restoreBars are a bar per restore, labelled by its --use-memory value
// and repetition: its phases stacked as they ran, in seconds from the
// backup's start.
func restoreBars(results []restoreResult) []plot.Bar {
	var out []plot.Bar
	for _, res := range results {
		for k, r := range res.restores {
			mem := cmp.Or(res.useMemory, r.UseMemory, "default")
			note := r.Join.Transfer
			if r.Rejoin.Transfer != "" {
				note += ", then " + r.Rejoin.Transfer
			}
			bar := plot.Bar{Label: fmt.Sprintf("%s #%d", mem, k+1), Note: note}
			origin := r.BackupStart
			if origin.IsZero() {
				origin = r.PrepareStart
			}
			for _, ph := range phaseBars(r) {
				if ph.from.IsZero() || ph.to.Before(ph.from) {
					continue
				}
				a, b := ph.from.Sub(origin).Seconds(), ph.to.Sub(origin).Seconds()
				bar.Spans = append(bar.Spans, plot.Span{From: a, To: b, Kind: ph.kind,
					Title: fmt.Sprintf("--use-memory %s, restore %d: %s, %.1f s", mem, k+1, ph.kind, b-a)})
			}
			out = append(out, bar)
		}
	}
	return out
}

type restorePhase struct {
	kind     string
	from, to time.Time
}

// phaseBars are a restore's phases in order; a phase not reached has
// a zero end.
func phaseBars(r sandbox.Restore) []restorePhase {
	return []restorePhase{{restoreBackup, r.BackupStart, r.BackupEnd}, {restorePrepare, r.PrepareStart, r.PrepareEnd},
		{restoreCopy, r.CopyStart, r.CopyEnd}, {restoreJoin, r.CopyEnd, r.Join.Synced}, {restoreRejoin, r.Rejoin.Started, r.Rejoin.Synced}}
}

// restoreFigure draws the restores' phases, a bar per restore.
func restoreFigure(results []restoreResult) []Figure {
	bars := restoreBars(results)
	if len(bars) == 0 {
		return nil
	}
	svg := plot.Spans{Title: "each restore's phases, in seconds from the backup's start", XLabel: "seconds", XUnit: "s",
		Kinds: restoreKinds, Bars: bars, W: 900}.SVG()
	return append(restoreShareFigure(results), Figure{Caption: "A bar per restore, by --use-memory value and repetition, its phases as they ran: the backup (taken before the restore and not counted in it), " +
		"the prepare (the redo apply, what --use-memory bounds), the copy into the node's data directory, then the node's start and join until Synced (IST or SST, written after the bar), and with --join ist,sst its rejoin by SST from its start again with its position cleared (after its stop) until Synced.",
		SVG: template.HTML(svg)})
}

// restoreShareFigure draws, against --use-memory on a log axis, the
// prepare's and the join's mean seconds (left axis) and the redo share
// (right axis, 0 to 1, with its 0.5): how the share falls as memory
// grows. None with fewer than two values of a known size.
func restoreShareFigure(results []restoreResult) []Figure {
	var xs, prep, join, shares []float64
	var ticks []plot.Tick
	for _, res := range results {
		size, err := sandbox.ParseSize(res.useMemory)
		if err != nil || size <= 0 || len(res.restores) == 0 {
			continue
		}
		var p, j, sh []float64
		for _, r := range res.restores {
			p, j, sh = append(p, r.PrepareSeconds()), append(j, r.JoinSeconds()), append(sh, r.RedoShare())
		}
		x := float64(size) / (1 << 20)
		xs, prep, join, shares = append(xs, x), append(prep, mean(p)), append(join, mean(j)), append(shares, mean(sh))
		ticks = append(ticks, plot.Tick{Pos: x, Label: res.useMemory})
	}
	if len(xs) < 2 {
		return nil
	}
	half := []float64{0.5, 0.5}
	svg := plot.Chart{Title: "the redo share and the prepare's time against --use-memory (means of the repetitions)",
		XLabel: "--use-memory (MiB, log)", YLabel: "seconds", YUnit: "s", Y2Label: "redo share", LogX: true, XTicks: ticks, W: 700, H: 300,
		Series: []plot.Series{
			{Name: "prepare: redo apply (s)", Color: "#c53030", X: xs, Y: prep},
			{Name: "start and join (s)", Color: "#2f855a", X: xs, Y: join},
			{Name: "redo share (right axis)", Color: "#1a202c", X: xs, Y: shares, Axis2: true, Width: 2.6},
			{Name: "half the restore", Color: "#a0aec0", X: []float64{xs[0], xs[len(xs)-1]}, Y: half, Axis2: true, Width: 1},
		}}.SVG()
	return []Figure{{Caption: "Per --use-memory value (a log axis), the prepare's mean time (the redo apply) and the join's, in seconds, and the redo share of the whole restore (black, right axis; " +
		"the grey line is half): above the grey line the redo apply is most of the restore. The share falls as memory grows when the prepare is starved: fewer batches, fewer pages read again.",
		SVG: template.HTML(svg)}}
}
