package throttle

import (
	"errors"
	"fmt"
)

// CapSpec holds a process's disk reads at a fixed number of operations a
// second until the cap is lifted: a disk of a given speed, whatever the
// machine's own, rather than a fraction of what the process did before
// (Run).
type CapSpec struct {
	PID int
	// Path is where the process keeps its data: the disk holding it is
	// the one whose reads are capped.
	Path string
	// ReadIOPS is the cap, in read operations a second (1 or more).
	ReadIOPS int64
	// Record is as Spec.Record: called with the group the process is
	// about to be moved into and the one it is in, before the group is
	// made, so that a caller killed while the cap holds leaves a note
	// that Release undoes.
	Record func(group, from string) (done func() error, err error)
}

// Capped is a cap in place.
type Capped struct {
	g   *group
	dev Device
	// Files are the control files written and what each holds, as the
	// kernel was given them: "blkio.throttle.read_iops_device" = "253:0
	// 1500" (v1), "io.max" = "253:0 riops=1500" (v2).
	Files map[string]string
	// Group is the cgroup the process was moved into.
	Group string
}

// Device is the disk whose reads are capped.
func (c *Capped) Device() Device { return c.dev }

// Cap moves the process into a group of its own (as Run does, under the
// same name, so that Release and a sandbox's repair know it) and caps
// its reads on the disk of s.Path at s.ReadIOPS. Lift undoes it.
func Cap(s CapSpec) (*Capped, error) {
	if s.ReadIOPS < minOps {
		return nil, fmt.Errorf("throttle: a read cap of %d operations a second: give 1 or more", s.ReadIOPS)
	}
	h, err := findHierarchy(IO)
	if err != nil {
		return nil, err
	}
	dev, err := DeviceOf(s.Path)
	if err != nil {
		return nil, err
	}
	g, err := join(h, s.PID, s.Record)
	if err != nil {
		return nil, err
	}
	c := &Capped{g: g, dev: dev, Group: g.dir, Files: map[string]string{}}
	file, value := "blkio.throttle.read_iops_device", fmt.Sprintf("%s %d", dev, s.ReadIOPS)
	if h.v2 {
		file, value = "io.max", fmt.Sprintf("%s riops=%d", dev, s.ReadIOPS)
	}
	if err := g.write(file, value); err != nil {
		return nil, errors.Join(err, c.Lift())
	}
	c.Files[file] = value
	return c, nil
}

// Lift removes the cap and moves the process (and any child it started)
// back into the group it came from, then takes back the note Record made.
// Lifting twice is harmless.
func (c *Capped) Lift() error {
	if c == nil || c.g == nil {
		return nil
	}
	g := c.g
	c.g = nil
	err := g.lift(IO, c.dev)
	left := g.leave()
	err = errors.Join(err, left)
	if left == nil && g.recorded != nil {
		err = errors.Join(err, g.recorded())
	}
	return err
}

// Usage is the I/O the group's processes did on the capped disk since the
// cap was set (the kernel's counts for the group: io.stat under v2, the
// blkio throttle statistics under v1): what a process read under the cap.
// Read it before Lift, which removes the group.
func (c *Capped) Usage() (Usage, error) {
	if c == nil || c.g == nil {
		return Usage{}, errors.New("throttle: the cap is lifted already")
	}
	return c.g.ioUsage(c.dev)
}
