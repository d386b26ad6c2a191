package sandbox

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// An orphan is a server process on one of a sandbox's data folders or
// ports that is not the one its state names: a server started by a
// joinbench that was killed before it saved the new process id (a
// restore, a crash's recovery). Status would call the node stopped, and a
// start would run a second server on the same data; it is found by its
// command line (--datadir) and by the port it listens on, named and
// stopped instead.

// Orphans are the pids of server processes on s's data folder or port
// other than s itself.
func (s *Server) Orphans() []int {
	own := 0
	if s.Running() {
		own = s.PID
	}
	byPort := listeners(s.Port)
	filePID := 0
	if b, err := os.ReadFile(s.PidFile); err == nil {
		filePID, _ = strconv.Atoi(strings.TrimSpace(string(b)))
	}
	var out []int
	des, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	bin := filepath.Base(s.Binary.Path)
	for _, de := range des {
		pid, err := strconv.Atoi(de.Name())
		if err != nil || pid == own || pid == os.Getpid() {
			continue
		}
		cmdline, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
		if err != nil || len(cmdline) == 0 {
			continue
		}
		args := bytes.Split(bytes.TrimRight(cmdline, "\x00"), []byte{0})
		if bin != "." && filepath.Base(string(args[0])) != bin {
			continue
		}
		// A listener on the port, or the pid in the pid file, is the
		// sandbox's only when its options name the sandbox's folder: a
		// stopped sandbox's port may be another server's now.
		onData := bytes.Contains(cmdline, []byte("--datadir="+s.DataDir+"\x00"))
		mine := bytes.Contains(cmdline, []byte(s.Dir+string(filepath.Separator)))
		if (onData || (byPort[pid] || pid == filePID) && mine) && processAlive(pid, "") {
			out = append(out, pid)
		}
	}
	return out
}

// StopOrphans stops every orphan of s (SIGTERM, then SIGKILL after a
// minute), saying so on log, one line each.
func (s *Server) StopOrphans(ctx context.Context) error {
	var errs []error
	log := s.log
	if log == nil {
		log = io.Discard
	}
	for _, pid := range s.Orphans() {
		fmt.Fprintf(log, "%s: stopping an orphan server (pid %d) on its data folder %s or port %d, left by a joinbench that was killed\n",
			s.Name, pid, s.DataDir, s.Port)
		errs = append(errs, stopPID(ctx, pid))
	}
	return errors.Join(errs...)
}

// stopPID stops a process cleanly, killing it after a minute.
func stopPID(ctx context.Context, pid int) error {
	if err := syscall.Kill(pid, syscall.SIGTERM); err != nil {
		return nil // gone already
	}
	deadline := time.Now().Add(time.Minute)
	for processAlive(pid, "") {
		if time.Now().After(deadline) || ctx.Err() != nil {
			_ = syscall.Kill(pid, syscall.SIGKILL)
			deadline = time.Now().Add(time.Minute)
		}
		time.Sleep(50 * time.Millisecond)
	}
	return nil
}

// listeners are the pids with a TCP socket listening on port (any
// address), from /proc/net/tcp{,6} and each process's descriptors.
func listeners(port int) map[int]bool {
	if port <= 0 {
		return nil
	}
	inodes := map[string]bool{}
	for _, f := range []string{"/proc/net/tcp", "/proc/net/tcp6"} {
		file, err := os.Open(f)
		if err != nil {
			continue
		}
		sc := bufio.NewScanner(file)
		for sc.Scan() {
			// sl local_address rem_address st ... uid timeout inode
			fs := strings.Fields(sc.Text())
			if len(fs) < 10 || fs[3] != "0A" { // 0A: LISTEN
				continue
			}
			_, hexPort, ok := strings.Cut(fs[1], ":")
			if p, err := strconv.ParseInt(hexPort, 16, 32); ok && err == nil && int(p) == port {
				inodes["socket:["+fs[9]+"]"] = true
			}
		}
		file.Close()
	}
	if len(inodes) == 0 {
		return nil
	}
	out := map[int]bool{}
	des, _ := os.ReadDir("/proc")
	for _, de := range des {
		pid, err := strconv.Atoi(de.Name())
		if err != nil {
			continue
		}
		fds, err := os.ReadDir(fmt.Sprintf("/proc/%d/fd", pid))
		if err != nil {
			continue
		}
		for _, fd := range fds {
			if l, err := os.Readlink(fmt.Sprintf("/proc/%d/fd/%s", pid, fd.Name())); err == nil && inodes[l] {
				out[pid] = true
				break
			}
		}
	}
	return out
}
