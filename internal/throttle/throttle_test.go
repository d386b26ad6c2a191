package throttle

import (
	"bufio"
	"context"
	"crypto/sha256"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/joinbench/joinbench/internal/testdb"
)

// childEnv makes the test binary a child that works in a loop and prints
// how much it has done every 50 ms: "io" writes 16 KiB and waits for the
// disk (fdatasync) each time, "cpu" hashes a block each time.
const childEnv = "JOINBENCH_THROTTLE_CHILD"

func TestMain(m *testing.M) {
	switch os.Getenv(childEnv) {
	case "io":
		childLoop(ioWork(os.Getenv("JOINBENCH_THROTTLE_DIR")))
	case "cpu":
		block := make([]byte, 4096)
		childLoop(func() { sha256.Sum256(block) })
	}
	os.Exit(m.Run())
}

func ioWork(dir string) func() {
	f, err := os.Create(filepath.Join(dir, "writes"))
	if err != nil {
		panic(err)
	}
	buf := make([]byte, 16<<10)
	i := int64(0)
	return func() {
		if _, err := f.WriteAt(buf, (i%64)*int64(len(buf))); err != nil {
			panic(err)
		}
		if err := syscall.Fdatasync(int(f.Fd())); err != nil {
			panic(err)
		}
		i++
	}
}

func childLoop(work func()) {
	var n atomic.Int64
	go func() {
		for range time.Tick(50 * time.Millisecond) {
			fmt.Println(n.Load())
		}
	}()
	for {
		work()
		n.Add(1)
	}
}

// child is a running worker child and how much it has done.
type child struct {
	cmd  *exec.Cmd
	mu   sync.Mutex
	done int64
}

func startChild(t *testing.T, kind, dir string) *child {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"="+kind, "JOINBENCH_THROTTLE_DIR="+dir)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	c := &child{cmd: cmd}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if n, err := strconv.ParseInt(sc.Text(), 10, 64); err == nil {
				c.mu.Lock()
				c.done = n
				c.mu.Unlock()
			}
		}
	}()
	return c
}

// rate is how much the child does per second over d.
func (c *child) rate(d time.Duration) float64 {
	c.mu.Lock()
	a := c.done
	c.mu.Unlock()
	start := time.Now()
	time.Sleep(d)
	c.mu.Lock()
	b := c.done
	c.mu.Unlock()
	return float64(b-a) / time.Since(start).Seconds()
}

func procCgroupOf(r Resource, pid int) (string, error) {
	h, err := findHierarchy(r)
	if err != nil {
		return "", err
	}
	return procCgroup(h, pid)
}

// A process that exits while limited (a server restarted or crashed by
// another action) ends the limit at once, with an error saying so, and
// leaves no group behind.
func TestProcessExitsWhileLimited(t *testing.T) {
	dir := t.TempDir()
	if err := Check(CPU, dir); err != nil {
		testdb.Skipf(t, "%v", err)
	}
	c := startChild(t, "cpu", dir)
	limited := make(chan time.Time, 1)
	done := make(chan error, 1)
	var g string
	go func() {
		_, err := Run(context.Background(), Spec{PID: c.cmd.Process.Pid, Resource: CPU, Fraction: 0.5,
			Measure: time.Second, For: time.Minute, Limited: func(at time.Time) {
				g, _ = procCgroupOf(CPU, c.cmd.Process.Pid)
				limited <- at
			}})
		done <- err
	}()
	select {
	case <-limited:
	case err := <-done:
		t.Fatalf("Run ended before it set the limit: %v", err)
	}
	_ = c.cmd.Process.Kill()
	_ = c.cmd.Wait()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "exited while limited") {
			t.Errorf("Run: %v, want an error saying the process exited", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("Run went on after its process exited")
	}
	h, _ := findHierarchy(CPU)
	if _, err := os.Stat(filepath.Join(h.mount, g)); g == "" || !os.IsNotExist(err) {
		t.Errorf("group %q left behind: %v", g, err)
	}
}
