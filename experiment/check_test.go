package experiment

import (
	"strings"
	"testing"
	"time"

	"github.com/joinbench/joinbench/internal/server"
	"github.com/joinbench/joinbench/internal/usage"
)

// Options a lesson could not run with are refused before anything is
// touched, naming the flag as typed.
func TestCheckRefusesBeforeTouching(t *testing.T) {
	tgt := &server.Target{Endpoints: []server.Endpoint{{Node: "node1"}, {Node: "node2"}, {Node: "node3"}}}
	good := Options{Repetitions: 1, Threads: 1, TableSize: 10, Window: 2 * time.Second, Percents: []float64{20}, Resource: "io", Node: "node3",
		WritePercents: []int{0}, Rows: 10, ActionTime: time.Second, UseMemory: []string{"100M"}, Joins: []string{"ist", "sst"}}
	for _, l := range LessonNames() {
		if err := check(l, tgt, good); err != nil {
			t.Errorf("%s: %v", l, err)
		}
	}
	for _, c := range []struct {
		lesson string
		change func(*Options)
		want   string
	}{
		{"slow-node", func(o *Options) { o.Percents = []float64{150} }, "--percent 150"},
		{"slow-node", func(o *Options) { o.Percents = []float64{0, 10, -5} }, "--percent -5"},
		{"slow-node", func(o *Options) { o.Percents = []float64{0, 10, 10} }, "--percent 10: given twice"},
		{"slow-node", func(o *Options) { o.Percents = nil }, "--percent: give at least one"},
		{"slow-node", func(o *Options) { o.Window = time.Second }, "--window 1s"},
		// Each mistake is named, whatever other flag is off too.
		{"slow-node", func(o *Options) { o.Window, o.Percents = time.Second, []float64{150} }, "--percent 150"},
		{"slow-node", func(o *Options) { o.Node = "node9" }, "--node node9"},
		{"recovery", func(o *Options) { o.Node = "node9" }, "--node node9"},
		{"hot-vs-uniform", func(o *Options) { o.Repetitions = 0 }, "--repetitions 0"},
		{"hot-vs-uniform", func(o *Options) { o.WritePercents = []int{120} }, "--write-percent 120"},
		{"restore", func(o *Options) { o.UseMemory = []string{"lots"} }, "lots"},
		{"restore", func(o *Options) { o.PrepareReadIOPS = -5 }, "--prepare-read-iops -5"},
		{"restore", func(o *Options) { o.Joins = []string{"ist", "rsync"} }, `--join "rsync"`},
		{"restore", func(o *Options) { o.Joins = []string{"sst", "sst"} }, "--join sst: given twice"},
	} {
		o := good
		c.change(&o)
		err := check(c.lesson, tgt, o)
		if err == nil || !usage.Is(err) || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "@") {
			t.Errorf("%s with %s: %v, want a usage error quoting it and no action spec", c.lesson, c.want, err)
		}
	}
}
