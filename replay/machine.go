package replay

import (
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/joinbench/joinbench/results"
)

// machineLoad measures how busy the client machine's CPUs are over the
// measured phase (results.MachineLoad): the kernel's CPU pressure stall
// time and steal time at its start and end, and the load average at its
// end. Where /proc does not have them, the figures are left out.
type machineLoad struct {
	mu          sync.Mutex // mark runs on a timer when there is a warmup
	at          time.Time
	psi         int64 // /proc/pressure/cpu "some" total, µs; -1 unknown
	steal, cpus int64 // /proc/stat jiffies: steal, and all
}

// mark reads the counters at the start of the measured phase.
func (m *machineLoad) mark() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.at = time.Now()
	m.psi = readPSI()
	m.steal, m.cpus = readStat()
}

// since returns the machine's load since mark; nil when mark did not run.
func (m *machineLoad) since() *results.MachineLoad {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.at.IsZero() {
		return nil
	}
	ml := &results.MachineLoad{Cores: runtime.NumCPU(), LoadAverage: readLoadAverage()}
	wall := time.Since(m.at)
	if psi := readPSI(); m.psi >= 0 && psi >= m.psi && wall > 0 {
		p := min(float64(psi-m.psi)/float64(wall.Microseconds()), 1)
		ml.CPUPressure = &p
	}
	if steal, cpus := readStat(); cpus > m.cpus && steal >= m.steal {
		s := float64(steal-m.steal) / float64(cpus-m.cpus)
		ml.Steal = &s
	}
	return ml
}

// readPSI is the total CPU "some" stall time (µs), -1 when unknown.
func readPSI() int64 {
	b, err := os.ReadFile("/proc/pressure/cpu")
	if err != nil {
		return -1
	}
	for _, line := range strings.Split(string(b), "\n") {
		if !strings.HasPrefix(line, "some ") {
			continue
		}
		for _, f := range strings.Fields(line) {
			if v, ok := strings.CutPrefix(f, "total="); ok {
				if n, err := strconv.ParseInt(v, 10, 64); err == nil {
					return n
				}
			}
		}
	}
	return -1
}

// readStat returns the steal time and the total of all CPU times of
// /proc/stat's "cpu" line (jiffies), zeros when unknown.
func readStat() (steal, total int64) {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return 0, 0
	}
	line, _, _ := strings.Cut(string(b), "\n")
	f := strings.Fields(line)
	if len(f) < 9 || f[0] != "cpu" {
		return 0, 0
	}
	// user nice system idle iowait irq softirq steal [guest guest_nice]:
	// guest time is counted in user time already.
	for i, v := range f[1:min(len(f), 9)] {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return 0, 0
		}
		total += n
		if i == 7 {
			steal = n
		}
	}
	return steal, total
}

// readLoadAverage is the 1-minute load average, 0 when unknown.
func readLoadAverage() float64 {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return 0
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return 0
	}
	v, _ := strconv.ParseFloat(f[0], 64)
	return v
}
