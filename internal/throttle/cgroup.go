package throttle

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
)

// Resource is what a limit takes away: CPU time or disk I/O.
type Resource string

const (
	CPU Resource = "cpu"
	IO  Resource = "io"
)

// hierarchy is the cgroup hierarchy that limits one resource: a v2 unified
// one with the controller enabled, or the v1 one the controller is
// mounted on.
type hierarchy struct {
	mount string // where it is mounted
	v2    bool
	// controller is the v1 controller name (cpu, blkio) or the v2 one
	// (cpu, io).
	controller string
}

// fsRoot is where /proc and /sys are read; tests point it at a tree of
// their own.
var fsRoot = "/"

func sysPath(p string) string { return filepath.Join(fsRoot, p) }

// findHierarchy finds the hierarchy that limits r on this machine: v2 when
// its root offers the controller, else v1. None, or one this user cannot
// write, is an error saying so.
func findHierarchy(r Resource) (hierarchy, error) {
	v1Name := map[Resource]string{CPU: "cpu", IO: "blkio"}[r]
	v2Name := map[Resource]string{CPU: "cpu", IO: "io"}[r]
	mounts, err := cgroupMounts()
	if err != nil {
		return hierarchy{}, err
	}
	var found []hierarchy
	for _, m := range mounts {
		switch {
		case m.v2:
			b, err := os.ReadFile(filepath.Join(m.dir, "cgroup.controllers"))
			if err == nil && slices.Contains(strings.Fields(string(b)), v2Name) {
				found = append(found, hierarchy{mount: m.dir, v2: true, controller: v2Name})
			}
		case slices.Contains(m.options, v1Name):
			found = append(found, hierarchy{mount: m.dir, controller: v1Name})
		}
	}
	if len(found) == 0 {
		return hierarchy{}, fmt.Errorf("this machine has no cgroup %s controller (cgroup v2 io.max/cpu.max or v1 %s) to limit a process with", v2Name, v1Name)
	}
	slices.SortStableFunc(found, func(a, b hierarchy) int {
		if a.v2 == b.v2 {
			return 0
		}
		if a.v2 {
			return -1
		}
		return 1
	})
	h := found[0]
	if err := syscall.Access(h.mount, 2); err != nil {
		return hierarchy{}, fmt.Errorf("cgroup %s controller at %s is not writable by this user (run as root): %w", h.controller, h.mount, err)
	}
	return h, nil
}

type mount struct {
	dir     string
	v2      bool
	options []string // a v1 mount's super options: its controllers
}

// cgroupMounts reads the cgroup mounts of /proc/self/mountinfo.
func cgroupMounts() ([]mount, error) {
	f, err := os.Open(sysPath("proc/self/mountinfo"))
	if err != nil {
		return nil, fmt.Errorf("read mounts: %w", err)
	}
	defer f.Close()
	var out []mount
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		// id parent major:minor root mountpoint options [optional...] - fstype source superoptions
		pre, post, ok := strings.Cut(sc.Text(), " - ")
		if !ok {
			continue
		}
		pf, qf := strings.Fields(pre), strings.Fields(post)
		if len(pf) < 5 || len(qf) < 3 {
			continue
		}
		dir := sysPath(unescapeMount(pf[4]))
		switch qf[0] {
		case "cgroup2":
			out = append(out, mount{dir: dir, v2: true})
		case "cgroup":
			out = append(out, mount{dir: dir, options: strings.Split(qf[2], ",")})
		}
	}
	return out, sc.Err()
}

// unescapeMount undoes mountinfo's octal escapes of spaces and the like.
func unescapeMount(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+3 < len(s) {
			var c byte
			if _, err := fmt.Sscanf(s[i+1:i+4], "%03o", &c); err == nil {
				b.WriteByte(c)
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// procCgroup is the path, inside h, of the group pid is in.
func procCgroup(h hierarchy, pid int) (string, error) {
	b, err := os.ReadFile(sysPath(fmt.Sprintf("proc/%d/cgroup", pid)))
	if err != nil {
		return "", fmt.Errorf("process %d: %w", pid, err)
	}
	for _, l := range strings.Split(string(b), "\n") {
		// id:controllers:path
		parts := strings.SplitN(l, ":", 3)
		if len(parts) != 3 {
			continue
		}
		if h.v2 && parts[0] == "0" && parts[1] == "" {
			return parts[2], nil
		}
		if !h.v2 && slices.Contains(strings.Split(parts[1], ","), h.controller) {
			return parts[2], nil
		}
	}
	return "", fmt.Errorf("process %d is in no %s cgroup", pid, h.controller)
}

// groupPrefix starts the name of the group made for a process: a process
// found in one is limited already.
const groupPrefix = "joinbench-slow-"

// group is a cgroup made for one process while it is limited.
type group struct {
	h    hierarchy
	pid  int
	dir  string // the group's directory
	from string // the directory of the group the process was in
	// recorded removes the note Spec.Record made of the group.
	recorded func() error
}

// join makes a group of its own for pid and moves the process (every
// thread) into it. Under v1 the group is a child of the one it was in, so
// that limits above still apply; under v2 a child of the root, as a group
// that holds processes cannot hand controllers down to children.
func join(h hierarchy, pid int, record func(group, from string) (func() error, error)) (*group, error) {
	cur, err := procCgroup(h, pid)
	if err != nil {
		return nil, err
	}
	g := &group{h: h, pid: pid, from: filepath.Join(h.mount, cur)}
	name := groupPrefix + fmt.Sprint(pid)
	if strings.HasPrefix(filepath.Base(cur), groupPrefix) {
		return nil, fmt.Errorf("process %d is limited already (cgroup %s): by another slow action on it, or by one whose run was killed, which the next command on its sandbox undoes (joinbench sandbox repair)", pid, g.from)
	}
	if h.v2 {
		if err := enableV2(h); err != nil {
			return nil, err
		}
		g.dir = filepath.Join(h.mount, name)
	} else {
		g.dir = filepath.Join(g.from, name)
	}
	if record != nil {
		if g.recorded, err = record(g.dir, g.from); err != nil {
			return nil, err
		}
	}
	fail := func(err error) (*group, error) {
		if g.recorded != nil {
			_ = g.recorded()
		}
		return nil, err
	}
	if err := os.Mkdir(g.dir, 0o755); err != nil {
		return fail(fmt.Errorf("make cgroup %s: %w", g.dir, err))
	}
	if err := g.move(g.dir); err != nil {
		_ = os.Remove(g.dir)
		return fail(err)
	}
	return g, nil
}

// Release undoes what a Run whose caller was killed left: every process
// in the group at dir goes back to the group at from and dir is removed
// (its limits go with it). A group that is gone already is no error.
func Release(dir, from string) error {
	if !strings.HasPrefix(filepath.Base(dir), groupPrefix) {
		return fmt.Errorf("cgroup %s is not one joinbench made", dir)
	}
	if _, err := os.Stat(dir); errors.Is(err, os.ErrNotExist) {
		return nil
	}
	return (&group{dir: dir, from: from}).leave()
}

// GroupPrefix starts the name of every group Run makes: a folder with
// this name under a cgroup hierarchy is a limit of joinbench's.
const GroupPrefix = groupPrefix

// enableV2 enables the controller for the root's children.
func enableV2(h hierarchy) error {
	p := filepath.Join(h.mount, "cgroup.subtree_control")
	b, err := os.ReadFile(p)
	if err != nil {
		return fmt.Errorf("cgroup: %w", err)
	}
	if slices.Contains(strings.Fields(string(b)), h.controller) {
		return nil
	}
	if err := os.WriteFile(p, []byte("+"+h.controller), 0o644); err != nil {
		return fmt.Errorf("enable the cgroup %s controller in %s: %w", h.controller, h.mount, err)
	}
	return nil
}

// move moves the process into the group at dir.
func (g *group) move(dir string) error {
	err := os.WriteFile(filepath.Join(dir, "cgroup.procs"), []byte(fmt.Sprint(g.pid)), 0o644)
	if err != nil {
		return fmt.Errorf("move process %d into cgroup %s: %w", g.pid, dir, err)
	}
	return nil
}

// write writes one control file of the group.
func (g *group) write(file, value string) error {
	if err := os.WriteFile(filepath.Join(g.dir, file), []byte(value), 0o644); err != nil {
		return fmt.Errorf("cgroup %s: %w", file, err)
	}
	return nil
}

func (g *group) read(file string) (string, error) {
	b, err := os.ReadFile(filepath.Join(g.dir, file))
	return string(b), err
}

// leave moves the process, and any child it started meanwhile (a state
// transfer script), back where it was and removes the group. A process
// that has exited meanwhile has nothing to move.
func (g *group) leave() error {
	var errs []error
	procs, _ := g.read("cgroup.procs")
	for _, p := range strings.Fields(procs) {
		err := os.WriteFile(filepath.Join(g.from, "cgroup.procs"), []byte(p), 0o644)
		if err != nil && !errors.Is(err, syscall.ESRCH) {
			errs = append(errs, fmt.Errorf("move process %s back into cgroup %s: %w", p, g.from, err))
		}
	}
	if err := os.Remove(g.dir); err != nil && !errors.Is(err, os.ErrNotExist) {
		errs = append(errs, fmt.Errorf("remove cgroup %s: %w", g.dir, err))
	}
	return errors.Join(errs...)
}
