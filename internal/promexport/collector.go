package promexport

import (
	"strconv"
	"sync"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/joinbench/joinbench/replay"
)

// collector reads the runs it watches when scraped (a prometheus
// Collector of constant metrics made from each run's snapshot).
type collector struct {
	descs map[string]*prometheus.Desc
	mu    sync.Mutex
	runs  []snapshotter
}

// snapshotter is a run as the collector reads it (replay.Live).
type snapshotter interface {
	Snapshot() replay.LiveSnapshot
}

func newCollector() *collector {
	c := &collector{descs: map[string]*prometheus.Desc{}}
	for _, m := range Metrics {
		c.descs[m.Name] = prometheus.NewDesc(m.Name, m.Help, m.Labels, nil)
	}
	return c
}

// watch adds a run. Runs that ended are dropped then: a command that makes
// runs one after the other (ab in rounds) shows the one going, and the
// last one until it exits.
func (c *collector) watch(l snapshotter) {
	c.mu.Lock()
	defer c.mu.Unlock()
	kept := c.runs[:0]
	for _, r := range c.runs {
		if r.Snapshot().Phase != replay.LiveEnded {
			kept = append(kept, r)
		}
	}
	c.runs = append(kept, l)
}

func (c *collector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range c.descs {
		ch <- d
	}
}

func (c *collector) Collect(ch chan<- prometheus.Metric) {
	c.mu.Lock()
	runs := append([]snapshotter(nil), c.runs...)
	c.mu.Unlock()
	for _, r := range runs {
		c.collectRun(ch, r.Snapshot())
	}
}

// collectRun sends the metrics of one run's snapshot.
func (c *collector) collectRun(ch chan<- prometheus.Metric, s replay.LiveSnapshot) {
	send := func(m Metric, v float64, labels ...string) {
		t := prometheus.GaugeValue
		if m.Type == "counter" {
			t = prometheus.CounterValue
		}
		ch <- prometheus.MustNewConstMetric(c.descs[m.Name], t, v, labels...)
	}
	id := s.RunID
	for _, p := range replay.LivePhases {
		send(runPhase, bool01(p == s.Phase), id, string(p))
	}
	send(runThreads, float64(s.Threads), id)
	send(runElapsed, s.Elapsed.Seconds(), id)
	send(runTimeLimit, s.Duration.Seconds(), id)
	send(runEventLimit, float64(s.EventLimit), id)
	send(runProgress, s.Progress, id)
	send(runEvents, float64(s.Events), id)
	send(runReconnects, float64(s.Reconnects), id)
	send(runWriterWait, s.WriterWait.Seconds(), id)

	bounds := make([]float64, len(s.LatencyBounds))
	for i, b := range s.LatencyBounds {
		bounds[i] = b.Seconds()
	}
	for _, ep := range s.Endpoints {
		send(endpointUp, bool01(!ep.Down), id, ep.Name)
		send(endpointThreads, float64(ep.Threads), id, ep.Name)
		send(endpointInFlight, float64(ep.InFlight), id, ep.Name)
		send(endpointEvents, float64(ep.Events), id, ep.Name)
		send(endpointExecutions, float64(ep.Executions), id, ep.Name)
		send(endpointErrors, float64(ep.Errors), id, ep.Name)
		send(endpointWriteStall, ep.WriteStall.Seconds(), id, ep.Name)
		for i, n := range ep.ScenarioInFlight {
			send(scenarioInFlight, float64(n), id, s.Scenarios[i], ep.Name)
		}
		for _, sc := range ep.Scenarios {
			send(scenarioExecutions, float64(sc.Executions), id, sc.Name, ep.Name, sc.Node)
			send(scenarioRetries, float64(sc.Retries), id, sc.Name, ep.Name, sc.Node)
			for code, n := range sc.ErrorCodes {
				send(scenarioErrors, float64(n), id, sc.Name, ep.Name, sc.Node, strconv.Itoa(int(code)))
			}
			ch <- latencyHistogram(c.descs[scenarioLatency.Name], bounds, sc, id, sc.Name, ep.Name, sc.Node)
		}
	}
}

// latencyHistogram is a scenario's latency buckets as a classic
// histogram: cumulative counts per upper bound, in seconds.
func latencyHistogram(d *prometheus.Desc, bounds []float64, sc replay.LiveScenario, labels ...string) prometheus.Metric {
	buckets := make(map[float64]uint64, len(bounds))
	var cum uint64
	for i, b := range bounds {
		cum += sc.Latency[i]
		buckets[b] = cum
	}
	count := cum + sc.Latency[len(bounds)]
	return prometheus.MustNewConstHistogram(d, count, sc.LatencySum.Seconds(), buckets, labels...)
}

func bool01(b bool) float64 {
	if b {
		return 1
	}
	return 0
}
