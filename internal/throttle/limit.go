package throttle

import (
	"fmt"
	"math"
	"strings"
)

// cpuPeriod is the period of a CPU quota, in microseconds (the kernel's
// default): the quota is spent within it, so a shorter one would make the
// limited process stop and go more often.
const cpuPeriod = 100000

// Smallest limits the kernel takes as limits (0 means none in v1).
const (
	minQuota = 1000 // µs per period
	minOps   = 1
	minBytes = 512
)

// setLimit caps the group at lim, rates per second of r (on dev for I/O).
// A figure of 0 or less is left unlimited.
func (g *group) setLimit(r Resource, dev Device, lim Usage) error {
	if r == CPU {
		quota := max(minQuota, int64(math.Round(lim.CPU*cpuPeriod)))
		if g.h.v2 {
			return g.write("cpu.max", fmt.Sprintf("%d %d", quota, cpuPeriod))
		}
		if err := g.write("cpu.cfs_period_us", fmt.Sprint(cpuPeriod)); err != nil {
			return err
		}
		return g.write("cpu.cfs_quota_us", fmt.Sprint(quota))
	}
	rbps, wbps := limitValue(lim.ReadBytes, minBytes), limitValue(lim.WriteBytes, minBytes)
	riops, wiops := limitValue(lim.ReadOps, minOps), limitValue(lim.WriteOps, minOps)
	if g.h.v2 {
		v2 := func(n int64) string {
			if n == 0 {
				return "max"
			}
			return fmt.Sprint(n)
		}
		return g.write("io.max", fmt.Sprintf("%s rbps=%s wbps=%s riops=%s wiops=%s", dev, v2(rbps), v2(wbps), v2(riops), v2(wiops)))
	}
	for _, l := range []struct {
		file string
		n    int64
	}{
		{"blkio.throttle.read_bps_device", rbps}, {"blkio.throttle.write_bps_device", wbps},
		{"blkio.throttle.read_iops_device", riops}, {"blkio.throttle.write_iops_device", wiops},
	} {
		if err := g.write(l.file, fmt.Sprintf("%s %d", dev, l.n)); err != nil {
			return err
		}
	}
	return nil
}

// limitValue is a rate as the kernel takes it: 0 for none, else at least
// least.
func limitValue(rate float64, least int64) int64 {
	if rate <= 0 {
		return 0
	}
	return max(least, int64(math.Round(rate)))
}

// lift removes the group's limits of r, so that nothing is limited even
// when the group cannot be removed (a child process still in it).
func (g *group) lift(r Resource, dev Device) error {
	if r == CPU {
		if g.h.v2 {
			return g.write("cpu.max", fmt.Sprintf("max %d", cpuPeriod))
		}
		return g.write("cpu.cfs_quota_us", "-1")
	}
	if g.h.v2 {
		return g.write("io.max", dev.String()+" rbps=max wbps=max riops=max wiops=max")
	}
	var errs []string
	for _, f := range []string{"blkio.throttle.read_bps_device", "blkio.throttle.write_bps_device",
		"blkio.throttle.read_iops_device", "blkio.throttle.write_iops_device"} {
		if err := g.write(f, dev.String()+" 0"); err != nil {
			errs = append(errs, err.Error())
		}
	}
	if len(errs) > 0 {
		return fmt.Errorf("%s", strings.Join(errs, "; "))
	}
	return nil
}
