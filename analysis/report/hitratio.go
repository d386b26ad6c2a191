package report

import "time"

// RatioPoint is a ratio over one interval.
type RatioPoint struct {
	Time  time.Time `json:"time"`
	Ratio float64   `json:"ratio"`
}

// RatioSeries is one endpoint's ratio over time.
type RatioSeries struct {
	Endpoint string       `json:"endpoint"`
	Points   []RatioPoint `json:"points"`
}

// hitRatio is, per endpoint and interval, the buffer pool hit ratio: the
// share of read requests served without reading a page from disk
// (1 - Innodb_buffer_pool_reads / Innodb_buffer_pool_read_requests). A hot
// subset that fits in memory keeps it near 1; uniform access over data
// larger than the pool does not. Intervals without read requests have no
// point.
func hitRatio(cs []CounterSeries) []RatioSeries {
	reads := map[string]map[time.Time]float64{}
	for _, c := range cs {
		if c.Variable == "Innodb_buffer_pool_reads" {
			m := map[time.Time]float64{}
			for _, p := range c.Points {
				m[p.Time] = p.PerSec
			}
			reads[c.Endpoint] = m
		}
	}
	var out []RatioSeries
	for _, c := range cs {
		if c.Variable != "Innodb_buffer_pool_read_requests" {
			continue
		}
		h := RatioSeries{Endpoint: c.Endpoint}
		for _, p := range c.Points {
			if p.PerSec <= 0 {
				continue
			}
			h.Points = append(h.Points, RatioPoint{Time: p.Time, Ratio: max(0, 1-reads[c.Endpoint][p.Time]/p.PerSec)})
		}
		if len(h.Points) > 0 {
			out = append(out, h)
		}
	}
	return out
}
