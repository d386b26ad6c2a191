package stall

import (
	"fmt"
	"time"
)

// DiskSample is one sample of a server's tablespaces' size on disk
// (status.DiskVariable).
type DiskSample struct {
	Time  time.Time
	Bytes int64
}

// AddDiskCost sets each endpoint's PeakExtraDiskBytes of each cost: the
// largest size sampled in the action's window less the last size sampled
// at or before its start (the first in the window when none was). disk
// holds each endpoint's samples in time order; an endpoint without a
// sample in the window keeps nil.
func AddDiskCost(costs []Cost, disk map[string][]DiskSample) {
	for i := range costs {
		c := &costs[i]
		for j := range c.Endpoints {
			ep := &c.Endpoints[j]
			samples := disk[ep.Endpoint]
			base, peak := int64(-1), int64(-1)
			for _, s := range samples {
				if !s.Time.After(c.from) {
					base = s.Bytes
					continue
				}
				if s.Time.After(c.to) {
					break
				}
				if base < 0 {
					base = s.Bytes
				}
				peak = max(peak, s.Bytes)
			}
			if peak >= 0 {
				extra := max(0, peak-base)
				ep.PeakExtraDiskBytes = &extra
			}
		}
	}
}

// DiskText is PeakExtraDiskBytes in MB, or "-" when not sampled.
func (c EndpointCost) DiskText() string {
	if c.PeakExtraDiskBytes == nil {
		return "-"
	}
	return fmt.Sprintf("%.1f", float64(*c.PeakExtraDiskBytes)/1e6)
}
