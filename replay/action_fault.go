package replay

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/go-sql-driver/mysql"

	"github.com/joinbench/joinbench/internal/server"
	"github.com/joinbench/joinbench/replay/results"
)

// pause stops the server process with SIGSTOP for d, then lets it go on
// with SIGCONT, also when the run ends first: a stopped node answers
// nothing, and the other nodes of a cluster see it as slow, not gone,
// until their suspect timeout.
func pause(ctx context.Context, p server.Process, d time.Duration) error {
	pid := p.PID()
	if pid <= 0 {
		return errors.New("the server is not running")
	}
	if err := syscall.Kill(pid, syscall.SIGSTOP); err != nil {
		return fmt.Errorf("SIGSTOP pid %d: %w", pid, err)
	}
	werr := wait(ctx, d)
	if err := syscall.Kill(pid, syscall.SIGCONT); err != nil {
		return fmt.Errorf("SIGCONT pid %d: %w", pid, err)
	}
	return werr
}

// execKillAfter is how long an external command is given to end after
// SIGTERM, when the run ends before it, before SIGKILL.
const execKillAfter = 10 * time.Second

// outputLimit bounds what is kept of an external command's output.
const outputLimit = 64 << 10

// exitError is a command that exited with a status other than 0.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

// runCommand runs an external command (pt-online-schema-change, gh-ost, a
// script) with sh -c, its {host}, {port}, {user}, {database} and {socket}
// replaced by the endpoint's, and MYSQL_PWD, MYSQL_HOST and MYSQL_TCP_PORT
// in its environment; its output goes to the action's row. When the run
// ends first, its process group gets SIGTERM, then SIGKILL.
func runCommand(ctx context.Context, command string, cfg *mysql.Config, row *results.Action) error {
	host, port, _ := endpointAddress(cfg)
	command = expandCommand(command, cfg)
	row.What = command
	cmd := exec.Command("/bin/sh", "-c", command)
	cmd.Env = append(os.Environ(), "MYSQL_PWD="+cfg.Passwd, "MYSQL_HOST="+host, "MYSQL_TCP_PORT="+port)
	out := &tailBuffer{max: outputLimit}
	cmd.Stdout, cmd.Stderr = out, out
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("start %s: %w", command, err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var err error
	select {
	case err = <-done:
	case <-ctx.Done():
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
		select {
		case err = <-done:
		case <-time.After(execKillAfter):
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			err = <-done
		}
	}
	row.Output = out.String()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return &exitError{code: ee.ExitCode(), err: fmt.Errorf("exit status %d: %s", ee.ExitCode(), lastLine(row.Output))}
	}
	return err
}

// expandCommand replaces an exec command's placeholders by the endpoint's
// address, user and database.
func expandCommand(command string, cfg *mysql.Config) string {
	host, port, socket := endpointAddress(cfg)
	return strings.NewReplacer("{host}", host, "{port}", port, "{user}", cfg.User, "{database}", cfg.DBName, "{socket}", socket).Replace(command)
}

func endpointAddress(cfg *mysql.Config) (host, port, socket string) {
	if cfg.Net == "unix" {
		return "localhost", "", cfg.Addr
	}
	h, p, ok := strings.Cut(cfg.Addr, ":")
	if i := strings.LastIndex(cfg.Addr, ":"); i >= 0 {
		h, p, ok = cfg.Addr[:i], cfg.Addr[i+1:], true
	}
	if !ok {
		p = "3306"
	}
	h = strings.Trim(h, "[]")
	if _, err := strconv.Atoi(p); err != nil {
		p = "3306"
	}
	return h, p, ""
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return clipText(lines[len(lines)-1], 300)
}
