package throttle

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

// Usage is what a process used, cumulative, or a rate of it per second:
// CPU time in seconds, or I/O on one device in operations and bytes.
type Usage struct {
	CPU                   float64
	ReadOps, WriteOps     float64
	ReadBytes, WriteBytes float64
}

// Rate is the usage between u and later, per second of d.
func (u Usage) Rate(later Usage, d time.Duration) Usage {
	s := d.Seconds()
	if s <= 0 {
		return Usage{}
	}
	return Usage{
		CPU:     (later.CPU - u.CPU) / s,
		ReadOps: (later.ReadOps - u.ReadOps) / s, WriteOps: (later.WriteOps - u.WriteOps) / s,
		ReadBytes: (later.ReadBytes - u.ReadBytes) / s, WriteBytes: (later.WriteBytes - u.WriteBytes) / s,
	}
}

// Scale multiplies every figure by f.
func (u Usage) Scale(f float64) Usage {
	return Usage{CPU: u.CPU * f, ReadOps: u.ReadOps * f, WriteOps: u.WriteOps * f, ReadBytes: u.ReadBytes * f, WriteBytes: u.WriteBytes * f}
}

// figures are the usage's figures of resource r, in a fixed order.
func (u Usage) figures(r Resource) []float64 {
	if r == CPU {
		return []float64{u.CPU}
	}
	return []float64{u.ReadOps, u.WriteOps, u.ReadBytes, u.WriteBytes}
}

// Format says the usage of r as a rate, in words.
func (u Usage) Format(r Resource) string {
	if r == CPU {
		return fmt.Sprintf("%.2f CPU", u.CPU)
	}
	return fmt.Sprintf("read %.0f op/s %.2f MB/s, write %.0f op/s %.2f MB/s", u.ReadOps, u.ReadBytes/1e6, u.WriteOps, u.WriteBytes/1e6)
}

// clockTick is the unit of the CPU times in /proc/PID/stat (USER_HZ),
// 100 on every Linux architecture Go runs on.
const clockTick = 100

// cpuTime is the CPU time pid has used, its exited threads included.
func cpuTime(pid int) (float64, error) {
	b, err := os.ReadFile(sysPath(fmt.Sprintf("proc/%d/stat", pid)))
	if err != nil {
		return 0, fmt.Errorf("process %d: %w", pid, err)
	}
	// The command name may hold spaces; the fields follow its ')'.
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return 0, fmt.Errorf("process %d: unreadable stat %q", pid, s)
	}
	f := strings.Fields(s[i+1:])
	// After the name: state(3) ... utime(14) stime(15), counted from 1.
	if len(f) < 13 {
		return 0, fmt.Errorf("process %d: short stat %q", pid, s)
	}
	utime, err1 := strconv.ParseUint(f[11], 10, 64)
	stime, err2 := strconv.ParseUint(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return 0, fmt.Errorf("process %d: unreadable stat %q", pid, s)
	}
	return float64(utime+stime) / clockTick, nil
}

// ioUsage reads the group's I/O on dev: io.stat under v2, the blkio
// throttle statistics under v1 (bios the group's processes issued, which
// is what the v1 limits act on).
func (g *group) ioUsage(dev Device) (Usage, error) {
	var u Usage
	if g.h.v2 {
		s, err := g.read("io.stat")
		if err != nil {
			return u, fmt.Errorf("cgroup io.stat: %w", err)
		}
		for _, l := range strings.Split(s, "\n") {
			f := strings.Fields(l)
			if len(f) == 0 || f[0] != dev.String() {
				continue
			}
			for _, kv := range f[1:] {
				k, v, _ := strings.Cut(kv, "=")
				n, _ := strconv.ParseFloat(v, 64)
				switch k {
				case "rbytes":
					u.ReadBytes = n
				case "wbytes":
					u.WriteBytes = n
				case "rios":
					u.ReadOps = n
				case "wios":
					u.WriteOps = n
				}
			}
		}
		return u, nil
	}
	for file, fields := range map[string][2]*float64{
		"blkio.throttle.io_service_bytes": {&u.ReadBytes, &u.WriteBytes},
		"blkio.throttle.io_serviced":      {&u.ReadOps, &u.WriteOps},
	} {
		s, err := g.read(file)
		if err != nil {
			return u, fmt.Errorf("cgroup %s: %w", file, err)
		}
		sc := bufio.NewScanner(strings.NewReader(s))
		for sc.Scan() {
			f := strings.Fields(sc.Text())
			if len(f) != 3 || f[0] != dev.String() {
				continue
			}
			n, _ := strconv.ParseFloat(f[2], 64)
			switch f[1] {
			case "Read":
				*fields[0] = n
			case "Write":
				*fields[1] = n
			}
		}
	}
	return u, nil
}
