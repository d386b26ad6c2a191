package sandbox

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/go-sql-driver/mysql"

	"github.com/joinbench/joinbench/internal/flavor"
	"github.com/joinbench/joinbench/internal/usage"
)

// Config says how to start a server.
type Config struct {
	// Binary is the server (see FindBinary). Required.
	Binary *Binary
	// Dir holds the data directory, error log, pid file and state. Empty:
	// a new temporary directory.
	Dir string
	// Port to listen on, on 127.0.0.1. 0: a free one.
	Port int
	// BufferPoolSize is innodb_buffer_pool_size, e.g. "1G". Empty: 1G.
	BufferPoolSize string
	// Database is created once the server is up. Empty: none.
	Database string
	// ServerArgs are extra server options, e.g. "--optimizer-switch=...".
	ServerArgs []string
	// StartTimeout bounds initialisation plus start-up. 0: 2 minutes.
	StartTimeout time.Duration
	// Detach lets the server outlive this process (named sandboxes).
	// Otherwise it is killed if this process dies.
	Detach bool
	// Log receives progress lines. Nil: discarded.
	Log io.Writer
}

// DefaultBufferPoolSize is the innodb_buffer_pool_size of a sandbox.
const DefaultBufferPoolSize = "1G"

// Server is a running (or stopped) sandbox server. Its exported fields are
// saved as the state of a named sandbox.
type Server struct {
	Name      string    `json:"name,omitempty"`
	Binary    Binary    `json:"binary"`
	Dir       string    `json:"dir"`
	DataDir   string    `json:"datadir"`
	Socket    string    `json:"socket"`
	TmpDir    string    `json:"tmpdir"`
	ErrorLog  string    `json:"error_log"`
	PidFile   string    `json:"pid_file"`
	Port      int       `json:"port"`
	PID       int       `json:"pid"`
	Args      []string  `json:"args"`
	StartedAt time.Time `json:"started_at"`

	exited chan struct{} // closed when a child started here exits
	tmpDir bool          // Dir was created by Start
	log    io.Writer
	// abortWithin bounds the clean shutdown of a server that did not
	// answer in time before it is killed. 0: as Stop, two minutes.
	abortWithin time.Duration
}

// benchmarkArgs are the server settings of every sandbox. They favour
// benchmark repeatability and load speed over durability:
// innodb_flush_log_at_trx_commit=2 flushes the redo log once a second
// rather than at every commit, and the binary log is off.
//
// The redo log is 1 GiB (the data directory grows by as much): a prepare
// of bench/prepare.sh's tables writes hundreds of megabytes of redo, and
// with the default 96 MiB InnoDB must checkpoint, flushing dirty pages,
// several times per load, which slows the load and costs the server CPU. The
// doublewrite buffer stays on: a load is no faster without it
// (bench/README.md, "Loading and the sandboxes' settings").
func benchmarkArgs(b *Binary, bufferPool string) []string {
	args := []string{
		"--bind-address=127.0.0.1",
		"--innodb-buffer-pool-size=" + bufferPool,
		"--innodb-flush-log-at-trx-commit=2",
		redoLogArg(b),
		"--local-infile=1",
		"--max-connections=2000",
		"--skip-log-bin",
		"--skip-name-resolve",
		"--character-set-server=utf8mb4",
	}
	if b.Flavor != flavor.MariaDB && b.atLeast(8, 0, 0) {
		args = append(args, "--mysqlx=OFF")
	}
	if os.Geteuid() == 0 {
		args = append(args, "--user=root")
	}
	return args
}

// redoLogArg sizes the redo log to 1 GiB in the server's terms.
func redoLogArg(b *Binary) string {
	switch {
	case b.Flavor == flavor.MariaDB && b.atLeast(10, 5, 0):
		return "--innodb-log-file-size=1G" // one file since 10.5
	case b.Flavor != flavor.MariaDB && b.atLeast(8, 0, 30):
		return "--innodb-redo-log-capacity=1G" // replaces innodb_log_file_size
	default:
		return "--innodb-log-file-size=512M" // two files (innodb_log_files_in_group)
	}
}

// Start initialises a data directory in cfg.Dir (unless one is there from
// an earlier start), starts the server on 127.0.0.1 and waits until it
// answers, then creates cfg.Database. On failure nothing is left running;
// a temporary directory is removed, a given one is kept for inspection.
func Start(ctx context.Context, cfg Config) (*Server, error) {
	if cfg.Binary == nil {
		return nil, errors.New("sandbox: no server binary")
	}
	if cfg.BufferPoolSize == "" {
		cfg.BufferPoolSize = DefaultBufferPoolSize
	}
	if cfg.StartTimeout == 0 {
		cfg.StartTimeout = 2 * time.Minute
	}
	log := cfg.Log
	if log == nil {
		log = io.Discard
	}
	s := &Server{Binary: *cfg.Binary, Dir: cfg.Dir, log: log}
	if s.Dir == "" {
		d, err := os.MkdirTemp("", "joinbench-sandbox-")
		if err != nil {
			return nil, fmt.Errorf("sandbox: %w", err)
		}
		s.Dir, s.tmpDir = d, true
	} else if err := os.MkdirAll(s.Dir, 0o755); err != nil {
		return nil, usage.Errorf("sandbox directory: %v", err)
	}
	ctx, cancel := context.WithTimeout(ctx, cfg.StartTimeout)
	defer cancel()
	fail := func(err error) (*Server, error) {
		if s.tmpDir {
			os.RemoveAll(s.Dir)
		}
		return nil, err
	}
	s.DataDir = filepath.Join(s.Dir, "data")
	s.ErrorLog = filepath.Join(s.Dir, "error.log")
	s.PidFile = filepath.Join(s.Dir, "mysqld.pid")
	s.Socket = socketPath(s.Dir)
	// A private tmpdir: servers sharing /tmp can trip over each other's
	// temporary files.
	s.TmpDir = filepath.Join(s.Dir, "tmp")
	if err := os.MkdirAll(s.TmpDir, 0o750); err != nil {
		return fail(usage.Errorf("sandbox directory: %v", err))
	}

	if cfg.Port != 0 && !portFree(cfg.Port) {
		return fail(usage.Errorf("sandbox: port %d on 127.0.0.1 is in use: choose another --port or leave it out", cfg.Port))
	}
	if _, err := os.Stat(filepath.Join(s.DataDir, "mysql")); err != nil {
		if err := s.initialise(ctx); err != nil {
			return fail(err)
		}
	}
	autoPort := cfg.Port == 0
	for attempt := 0; ; attempt++ {
		port := cfg.Port
		if autoPort {
			p, err := freePort()
			if err != nil {
				return fail(fmt.Errorf("sandbox: find a free port: %w", err))
			}
			port = p
		} else if !portFree(port) {
			return fail(usage.Errorf("sandbox: port %d on 127.0.0.1 is in use: choose another --port or leave it out", port))
		}
		err := s.start(ctx, port, cfg)
		if err == nil {
			break
		}
		if errors.Is(err, errPortTaken) && autoPort && attempt < 3 {
			continue // another process took the port meanwhile
		}
		if errors.Is(err, errPortTaken) {
			err = usage.Errorf("sandbox: port %d on 127.0.0.1 is in use", port)
		}
		return fail(err)
	}
	if err := s.setup(ctx, cfg.Database); err != nil {
		_ = s.Stop(context.Background())
		return fail(err)
	}
	return s, nil
}

var errPortTaken = errors.New("port in use")

// socketPath keeps the socket inside dir unless the path would pass the
// 107-byte limit of Unix socket names.
func socketPath(dir string) string {
	p := filepath.Join(dir, "mysqld.sock")
	if len(p) < 100 {
		return p
	}
	h := uint32(2166136261)
	for i := 0; i < len(dir); i++ {
		h = (h ^ uint32(dir[i])) * 16777619
	}
	return filepath.Join(os.TempDir(), fmt.Sprintf("joinbench-%08x.sock", h))
}

// basedir is the server's installation directory when it is not the
// system one (/usr), e.g. an unpacked tarball; "" for the system one.
func (s *Server) basedir() string {
	dir := filepath.Dir(filepath.Dir(s.Binary.Path))
	if dir == "/usr" {
		return ""
	}
	return dir
}

func (s *Server) initialise(ctx context.Context) error {
	if err := os.MkdirAll(s.DataDir, 0o750); err != nil {
		return usage.Errorf("sandbox: data directory: %v", err)
	}
	var cmd *exec.Cmd
	started := time.Now()
	if s.Binary.Flavor == flavor.MariaDB {
		script, err := s.installDB()
		if err != nil {
			return err
		}
		args := []string{"--no-defaults", "--datadir=" + s.DataDir, "--tmpdir=" + s.TmpDir, "--skip-name-resolve"}
		if bd := s.basedir(); bd != "" {
			args = append(args, "--basedir="+bd)
		}
		if s.Binary.atLeast(10, 4, 0) {
			args = append(args, "--auth-root-authentication-method=normal")
		}
		if s.Binary.atLeast(10, 5, 0) {
			args = append(args, "--skip-test-db")
		}
		if os.Geteuid() == 0 {
			args = append(args, "--user=root")
		}
		cmd = exec.CommandContext(ctx, script, args...)
	} else {
		if !s.Binary.atLeast(5, 7, 0) {
			return usage.Errorf("sandbox: %s: MySQL before 5.7 is not supported", s.Binary)
		}
		args := []string{"--no-defaults", "--initialize-insecure", "--datadir=" + s.DataDir, "--tmpdir=" + s.TmpDir, "--log-error=" + s.ErrorLog}
		if bd := s.basedir(); bd != "" {
			args = append(args, "--basedir="+bd)
		}
		if os.Geteuid() == 0 {
			args = append(args, "--user=root")
		}
		cmd = exec.CommandContext(ctx, s.Binary.Path, args...)
	}
	fmt.Fprintf(s.log, "initialising %s data directory %s\n", s.Binary, s.DataDir)
	out, err := cmd.CombinedOutput()
	if err != nil {
		log := filepath.Join(s.Dir, "init.log")
		_ = os.WriteFile(log, out, 0o644)
		tail := errorLines(string(out))
		if tail == "" {
			tail = errorLines(readTail(s.ErrorLog))
		}
		return usage.Errorf("sandbox: initialising the data directory failed (%v): %s (full output: %s)", err, tail, log)
	}
	fmt.Fprintf(s.log, "initialised in %.1fs\n", time.Since(started).Seconds())
	return nil
}

// installDB finds mariadb-install-db (or mysql_install_db) next to the
// server binary, else on PATH.
func (s *Server) installDB() (string, error) {
	dir := filepath.Dir(s.Binary.Path)
	up := filepath.Dir(dir)
	for _, name := range []string{"mariadb-install-db", "mysql_install_db"} {
		for _, d := range []string{dir, filepath.Join(up, "bin"), filepath.Join(up, "scripts")} {
			p := filepath.Join(d, name)
			if st, err := os.Stat(p); err == nil && st.Mode()&0o111 != 0 {
				return p, nil
			}
		}
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	return "", usage.Errorf("sandbox: mariadb-install-db not found next to %s nor on PATH: install it with '%s'", s.Binary.Path, InstallHint)
}

func (s *Server) start(ctx context.Context, port int, cfg Config) error {
	s.Port = port
	args := []string{
		"--no-defaults",
		"--datadir=" + s.DataDir,
		"--tmpdir=" + s.TmpDir,
		"--port=" + strconv.Itoa(port),
		"--socket=" + s.Socket,
		"--pid-file=" + s.PidFile,
		"--log-error=" + s.ErrorLog,
	}
	if bd := s.basedir(); bd != "" {
		args = append(args, "--basedir="+bd)
	}
	args = append(args, benchmarkArgs(&s.Binary, cfg.BufferPoolSize)...)
	args = append(args, cfg.ServerArgs...)
	s.Args = args
	return s.launch(ctx, cfg.Detach)
}

// launch runs the server binary with s.Args, output appended to the error
// log, and waits until it answers on its socket. A server that exits first
// is a user error quoting the log's errors (errPortTaken when its port was
// taken); one still silent when ctx ends is stopped.
func (s *Server) launch(ctx context.Context, detach bool) error {
	// Never a second server on the same data.
	if err := s.StopOrphans(ctx); err != nil {
		return err
	}
	logStart := fileSize(s.ErrorLog)
	out, err := os.OpenFile(s.ErrorLog, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return fmt.Errorf("sandbox: %w", err)
	}
	defer out.Close()
	cmd := exec.Command(s.Binary.Path, s.Args...)
	cmd.Stdout, cmd.Stderr = out, out
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if detach {
		cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	} else {
		stopWithParent(cmd.SysProcAttr)
	}
	fmt.Fprintf(s.log, "starting %s on 127.0.0.1:%d\n", s.Binary, s.Port)
	started := time.Now()
	if err := cmd.Start(); err != nil {
		return usage.Errorf("sandbox: start %s: %v", s.Binary.Path, err)
	}
	s.PID = cmd.Process.Pid
	s.StartedAt = time.Now().UTC()
	s.exited = make(chan struct{})
	go func() { _ = cmd.Wait(); close(s.exited) }()

	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-s.exited:
			tail := readTailFrom(s.ErrorLog, logStart)
			if strings.Contains(tail, "Address already in use") || strings.Contains(tail, "Bind on TCP/IP port") {
				return errPortTaken
			}
			return usage.Errorf("sandbox: %s exited during start-up: %s (log: %s)", filepath.Base(s.Binary.Path), errorLines(tail), s.ErrorLog)
		case <-ctx.Done():
			stopCtx, cancel := context.Background(), context.CancelFunc(func() {})
			if s.abortWithin > 0 {
				stopCtx, cancel = context.WithTimeout(stopCtx, s.abortWithin)
			}
			_ = s.Stop(stopCtx)
			cancel()
			return usage.Errorf("sandbox: server did not answer within the start timeout: %s (log: %s)", errorLines(readTailFrom(s.ErrorLog, logStart)), s.ErrorLog)
		case <-tick.C:
			if err := s.ping(ctx); err == nil {
				fmt.Fprintf(s.log, "ready in %.1fs\n", time.Since(started).Seconds())
				return nil
			}
		}
	}
}

func (s *Server) socketConfig() *mysql.Config {
	c := mysql.NewConfig()
	c.User = "root"
	c.Net = "unix"
	c.Addr = s.Socket
	c.Timeout = 2 * time.Second
	return c
}

func (s *Server) ping(ctx context.Context) error {
	conn, err := mysql.NewConnector(s.socketConfig())
	if err != nil {
		return err
	}
	db := sql.OpenDB(conn)
	defer db.Close()
	pctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	return db.PingContext(pctx)
}

// setup lets root in over TCP from 127.0.0.1 (MySQL's --initialize only
// creates root@localhost) and creates the database.
func (s *Server) setup(ctx context.Context, database string) error {
	conn, err := mysql.NewConnector(s.socketConfig())
	if err != nil {
		return err
	}
	db := sql.OpenDB(conn)
	defer db.Close()
	stmts := []string{
		"CREATE USER IF NOT EXISTS 'root'@'127.0.0.1' IDENTIFIED BY ''",
		"GRANT ALL PRIVILEGES ON *.* TO 'root'@'127.0.0.1' WITH GRANT OPTION",
	}
	if database != "" {
		stmts = append(stmts, "CREATE DATABASE IF NOT EXISTS `"+strings.ReplaceAll(database, "`", "``")+"`")
	}
	for _, q := range stmts {
		if _, err := db.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("sandbox: %s: %w", q, err)
		}
	}
	return nil
}

// Config is the driver configuration of root over TCP, with database
// selected (may be empty).
func (s *Server) Config(database string) *mysql.Config {
	c := mysql.NewConfig()
	c.User = "root"
	c.Net = "tcp"
	c.Addr = s.Addr()
	c.DBName = database
	return c
}

// DSN is Config as a go-sql-driver/mysql DSN.
func (s *Server) DSN(database string) string { return s.Config(database).FormatDSN() }

// Addr is 127.0.0.1:port.
func (s *Server) Addr() string { return net.JoinHostPort("127.0.0.1", strconv.Itoa(s.Port)) }

// Running reports whether the server process is alive.
func (s *Server) Running() bool {
	if s.exited != nil {
		select {
		case <-s.exited:
			return false
		default:
			return true
		}
	}
	return processAlive(s.PID, s.DataDir)
}

// Stop shuts the server down cleanly (SIGTERM) and waits for it to exit;
// after two minutes, or when ctx ends, it is killed. Stopping a stopped
// server is a no-op.
func (s *Server) Stop(ctx context.Context) error {
	if !s.Running() {
		return nil
	}
	p, err := os.FindProcess(s.PID)
	if err != nil {
		return err
	}
	fmt.Fprintf(s.log, "stopping %s on 127.0.0.1:%d\n", s.Binary, s.Port)
	if err := p.Signal(syscall.SIGTERM); err != nil && !errors.Is(err, os.ErrProcessDone) {
		return fmt.Errorf("sandbox: stop pid %d: %w", s.PID, err)
	}
	deadline := time.NewTimer(2 * time.Minute)
	defer deadline.Stop()
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for s.Running() {
		select {
		case <-ctx.Done():
			_ = p.Kill()
			return ctx.Err()
		case <-deadline.C:
			_ = p.Kill()
			return fmt.Errorf("sandbox: pid %d did not shut down within 2 minutes; killed", s.PID)
		case <-tick.C:
		}
	}
	return nil
}

// Remove deletes the sandbox directory (data, logs, state). Stop first.
func (s *Server) Remove() error {
	if s.Running() {
		return fmt.Errorf("sandbox: %s is still running", s.Dir)
	}
	if !strings.HasPrefix(s.Socket, s.Dir) {
		os.Remove(s.Socket)
	}
	return os.RemoveAll(s.Dir)
}

// processAlive reports whether pid is a live (not zombie) server process
// using datadir, so that a recycled pid is not mistaken for the server.
func processAlive(pid int, datadir string) bool {
	if pid <= 0 {
		return false
	}
	if err := syscall.Kill(pid, 0); err != nil && !errors.Is(err, syscall.EPERM) {
		return false
	}
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return !os.IsNotExist(err) || !dirExists("/proc/self")
	}
	if i := bytes.LastIndexByte(stat, ')'); i >= 0 && i+2 < len(stat) && (stat[i+2] == 'Z' || stat[i+2] == 'X') {
		return false
	}
	cmdline, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
	if err != nil || datadir == "" {
		return true
	}
	return bytes.Contains(cmdline, []byte("--datadir="+datadir+"\x00"))
}

func dirExists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

func portFree(port int) bool {
	l, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
	if err != nil {
		return false
	}
	l.Close()
	return true
}

func fileSize(p string) int64 {
	st, err := os.Stat(p)
	if err != nil {
		return 0
	}
	return st.Size()
}

func readTail(p string) string { return readTailFrom(p, 0) }

// readTailFrom returns the last 8 KiB of p written after offset.
func readTailFrom(p string, offset int64) string {
	f, err := os.Open(p)
	if err != nil {
		return ""
	}
	defer f.Close()
	if size := fileSize(p); size-offset > 8192 {
		offset = size - 8192
	}
	_, _ = f.Seek(offset, io.SeekStart)
	b, _ := io.ReadAll(f)
	return string(b)
}

// errorLines condenses a log tail to its [ERROR] lines (else its last
// line), joined on one line.
func errorLines(tail string) string {
	var errs []string
	var last string
	for _, l := range strings.Split(tail, "\n") {
		l = strings.TrimSpace(l)
		if l == "" {
			continue
		}
		last = clip(l)
		if (strings.Contains(l, "[ERROR]") || strings.HasPrefix(l, "ERROR")) && !echoesSSTCommand(l) {
			if i := strings.Index(l, "[ERROR]"); i >= 0 {
				l = strings.TrimSpace(l[i:])
			}
			errs = append(errs, clip(l))
		}
	}
	if len(errs) == 0 {
		return last
	}
	if len(errs) > 3 {
		errs = errs[len(errs)-3:]
	}
	return strings.Join(errs, "; ")
}

// echoesSSTCommand reports whether a Galera error line only repeats the
// state transfer script's command line (every server option, a few
// kilobytes): the script's own WSREP_SST lines say what went wrong.
func echoesSSTCommand(l string) bool {
	return strings.Contains(l, "wsrep_sst_") && strings.Contains(l, "--mysqld-args")
}

// clip shortens a log line to what an error message can carry.
func clip(l string) string {
	const max = 300
	if len(l) > max {
		return l[:max] + "..."
	}
	return l
}

// saveState writes the server's state file.
func (s *Server) saveState() error {
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	tmp := filepath.Join(s.Dir, stateFile+".tmp")
	if err := os.WriteFile(tmp, append(b, '\n'), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, filepath.Join(s.Dir, stateFile))
}

const stateFile = "sandbox.json"
