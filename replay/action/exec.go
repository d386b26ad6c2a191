package action

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/go-sql-driver/mysql"

	"github.com/joinbench/joinbench/internal/ledger"
	"github.com/joinbench/joinbench/internal/server/sandbox"
)

// execKind runs an external command (pt-online-schema-change, gh-ost, a
// script) against the endpoint.
var execKind = &Kind{
	Name:      "exec",
	Syntax:    "exec: COMMAND",
	Doc:       "runs `sh -c COMMAND`, `{host}`, `{port}`, `{user}`, `{database}` and `{socket}` replaced by the endpoint's, `MYSQL_PWD`, `MYSQL_HOST` and `MYSQL_TCP_PORT` set; its output (last 64 KiB) is kept in `actions.parquet`. The action lasts as long as the command and every process it started; when the run ends first, they get SIGTERM, then SIGKILL 10 s later. Processes are found by their process group and, on Linux, by a mark (`JOINBENCH_ACTION`) in the environment they inherit, so one that escapes the group (`setsid`, a daemon's double fork) ends with the run too; one that clears its environment (`env -i`, a service manager starting the work) cannot be found and may outlive the run. For `pt-online-schema-change` (Debian: `percona-toolkit`), gh-ost, a script",
	Note:      "{host} {port} {user} {database} {socket} replaced",
	StopBound: execKillAfter,
	Parse: func(a Args) (Job, error) {
		if err := a.NoWords("the command"); err != nil {
			return nil, err
		}
		cmd, err := a.NeedText("the command")
		if err != nil {
			return nil, err
		}
		return execJob{command: cmd}, nil
	},
}

// execKillAfter is how long an external command is given to end after
// SIGTERM, when the run ends before it, before SIGKILL.
const execKillAfter = 10 * time.Second

// outputLimit bounds what is kept of an external command's output.
const outputLimit = 64 << 10

type execJob struct{ command string }

// What is the command as run on the target: its placeholders replaced.
func (j execJob) What(t Target) string {
	if t.Conn == nil {
		return j.command
	}
	return expandCommand(j.command, t.Conn)
}

// Do runs the command with sh -c, its {host}, {port}, {user}, {database}
// and {socket} replaced by the endpoint's, and MYSQL_PWD, MYSQL_HOST and
// MYSQL_TCP_PORT in its environment; its output goes to the action's outcome.
// The action lasts as long as the command and every process it started
// (its family, family.go): when the run ends first, they get SIGTERM,
// then SIGKILL.
func (j execJob) Do(ctx context.Context, at Site, out *Outcome) error {
	cfg := at.Conn
	host, port, _ := endpointAddress(cfg)
	command := expandCommand(j.command, cfg)
	out.What = command
	fam, err := newFamily()
	if err != nil {
		return err
	}
	cmd := exec.Command("/bin/sh", "-c", command)
	cmd.Env = append(os.Environ(), "MYSQL_PWD="+cfg.Passwd, "MYSQL_HOST="+host, "MYSQL_TCP_PORT="+port, fam.env())
	printed := &tailBuffer{max: outputLimit}
	cmd.Stdout, cmd.Stderr = printed, printed
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("start %s: %w", command, err)
	}
	fam.pgid = cmd.Process.Pid
	if db, table, ok := onlineSchemaChange(command); ok {
		// pt-online-schema-change stopped before it cleans up (the run
		// ended first, or joinbench was killed) leaves its triggers and
		// its copy of the table. Noted once it started (a process group
		// to stop), long before its perl has created them.
		start := ""
		if o, err := ledger.OwnerOf(fam.pgid); err == nil {
			start = strconv.FormatUint(o.Start, 10)
		}
		done, lerr := ledger.Record(at.Ledger, ledger.Entry{Kind: sandbox.ChangeOnlineSchemaChange, Node: at.Node,
			What: fmt.Sprintf("pt-online-schema-change on %s.%s (its triggers and _%s_new)", db, table, table),
			Undo: map[string]string{"database": db, "table": table, "pgid": strconv.Itoa(fam.pgid), "start": start}})
		defer func() {
			if err := cleanOnlineSchemaChange(at, db, table); err == nil && lerr == nil {
				_ = done()
			}
		}()
		if lerr != nil {
			// A change that cannot be noted is not made: the tool is
			// stopped at once, before it has created anything.
			stopNow, cancel := context.WithCancel(ctx)
			cancel()
			_ = waitCommand(stopNow, cmd, fam)
			out.Output = printed.String()
			return fmt.Errorf("stopped before it changed anything: %w", lerr)
		}
	}
	err = waitCommand(ctx, cmd, fam)
	out.Output = printed.String()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return &exitError{code: ee.ExitCode(), err: fmt.Errorf("exit status %d: %s", ee.ExitCode(), lastLine(out.Output))}
	}
	return err
}

// waitCommand waits for a started command and then for the processes it
// left behind; when ctx ends first, the command's family gets SIGTERM,
// then SIGKILL execKillAfter later.
func waitCommand(ctx context.Context, cmd *exec.Cmd, fam *family) error {
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var err error
	select {
	case err = <-done:
		if fam.waitOut(ctx) {
			return err
		}
	case <-ctx.Done():
	}
	fam.signal(syscall.SIGTERM)
	killed := time.After(execKillAfter)
	for done != nil || fam.alive() {
		select {
		case err = <-done:
			done = nil
		case <-killed:
			fam.signal(syscall.SIGKILL)
			if done != nil {
				err = <-done
			}
			return err
		case <-time.After(familyPoll):
		}
	}
	return err
}

// ptOSCTarget finds the D= and t= of a pt-online-schema-change DSN.
var ptOSCTarget = regexp.MustCompile(`(?:^|[\s,])([Dt])=([^,\s]+)`)

// onlineSchemaChange reads the database and table a command runs
// pt-online-schema-change on; ok false for any other command.
func onlineSchemaChange(command string) (db, table string, ok bool) {
	if !strings.Contains(command, "pt-online-schema-change") {
		return "", "", false
	}
	for _, m := range ptOSCTarget.FindAllStringSubmatch(command, -1) {
		if m[1] == "D" {
			db = m[2]
		} else {
			table = m[2]
		}
	}
	return db, table, db != "" && table != ""
}

// cleanOnlineSchemaChange drops what pt-online-schema-change leaves when
// it is stopped before it cleans up (nothing when it finished).
func cleanOnlineSchemaChange(at Site, db, table string) error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	for _, q := range sandbox.OnlineSchemaChangeLeftovers(db, table) {
		if _, err := at.DB.ExecContext(ctx, q); err != nil {
			return err
		}
	}
	return nil
}

// exitError is a command that exited with a status other than 0: the
// status is the row's error code.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }
func (e *exitError) ExitCode() int { return e.code }

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
