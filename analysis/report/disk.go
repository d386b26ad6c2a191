package report

import (
	"github.com/joinbench/joinbench/analysis/stall"
	"github.com/joinbench/joinbench/results"
)

// readDisk reads each endpoint's samples of its tablespaces' size, in
// time order: the disk an action took (stall.AddDiskCost).
func readDisk(dir string, warn results.Warner) (map[string][]stall.DiskSample, error) {
	out := map[string][]stall.DiskSample{}
	err := results.ScanStatus(dir, warn, func(s *results.Status) error {
		if s.Variable == results.DiskVariable {
			out[s.Endpoint] = append(out[s.Endpoint], stall.DiskSample{Time: s.Time, Bytes: s.Delta})
		}
		return nil
	})
	return out, err
}
