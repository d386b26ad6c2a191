package server

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"

	"github.com/joinbench/joinbench/internal/usage"
)

func TestReadOptionFile(t *testing.T) {
	f, err := ReadOptionFile("testdata/my.cnf", OptionGroups...)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"user":            "alice",
		"password":        " spaced\t", // [joinbench] in the included file, read last
		"host":            "db1.example.com",
		"port":            "3311", // [joinbench] comes after [client]
		"ssl_mode":        "REQUIRED",
		"socket":          "/tmp/ignored.sock",
		"database":        "bench",
		"connect_timeout": "",
		"ssl_ca":          `/etc/ssl/ca\ file.pem`,
	}
	for k, v := range want {
		got, ok := f.Get(k)
		if !ok || got != v {
			t.Errorf("%s = %q (set %v), want %q", k, got, ok, v)
		}
	}
	if got := strings.Join(f.Keys(), ","); got != "connect_timeout,database,host,password,port,socket,ssl_ca,ssl_mode,user" {
		t.Errorf("keys %s", got)
	}
	if len(f.Files) != 2 {
		t.Errorf("files read %v, want my.cnf and extra.cnf", f.Files)
	}
}

func TestParseValue(t *testing.T) {
	for in, want := range map[string]string{
		`plain`:            "plain",
		`with space  # c`:  "with space",
		`"a # b"`:          "a # b",
		`"esc\n\\\""`:      "esc\n\\\"",
		`C:\Program Files`: `C:\Program Files`,
		`"x"  # trailing`:  "x",
	} {
		got, err := parseValue(in)
		if err != nil || got != want {
			t.Errorf("parseValue(%s) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, bad := range []string{`"open`, `"a" b`} {
		if _, err := parseValue(bad); err == nil {
			t.Errorf("parseValue(%s): want an error", bad)
		}
	}
}

func TestReadOptionFileErrors(t *testing.T) {
	_, err := ReadOptionFile("testdata/bad.cnf", "client")
	if err == nil || !usage.Is(err) || !strings.Contains(err.Error(), "bad.cnf:2") {
		t.Errorf("got %v, want a usage error naming bad.cnf:2", err)
	}
	_, err = ReadOptionFile("testdata/missing.cnf", "client")
	if err == nil || !usage.Is(err) {
		t.Errorf("missing file: got %v, want a usage error", err)
	}
}

// home points ~ at a temp dir holding the given ~/.my.cnf (none if empty).
func home(t *testing.T, mycnf string) {
	dir := t.TempDir()
	t.Setenv("HOME", dir)
	if mycnf != "" {
		if err := os.WriteFile(filepath.Join(dir, ".my.cnf"), []byte(mycnf), 0o600); err != nil {
			t.Fatal(err)
		}
	}
}

func resolve(t *testing.T, o Options) (*mysql.Config, Endpoint) {
	t.Helper()
	r, err := o.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Endpoints) != 1 {
		t.Fatalf("endpoints %v", r.Endpoints)
	}
	cfg, err := r.Endpoints[0].Config()
	if err != nil {
		t.Fatal(err)
	}
	return cfg, r.Endpoints[0]
}

func TestPrecedence(t *testing.T) {
	home(t, "[client]\nuser=cnfuser\npassword=cnfpw\nhost=cnfhost\nport=4000\n")

	// Option file over built-in defaults.
	cfg, ep := resolve(t, Options{})
	if cfg.User != "cnfuser" || cfg.Passwd != "cnfpw" || cfg.Addr != "cnfhost:4000" || cfg.DBName != DefaultDatabase {
		t.Errorf("from ~/.my.cnf: %s@%s/%s pw=%q", cfg.User, cfg.Addr, cfg.DBName, cfg.Passwd)
	}
	if ep.Name != "cnfhost:4000" {
		t.Errorf("name %q", ep.Name)
	}

	// Flags (or environment, merged by the CLI) over the option file.
	cfg, _ = resolve(t, Options{Host: "flaghost", User: "flaguser", Database: "d"})
	if cfg.User != "flaguser" || cfg.Passwd != "cnfpw" || cfg.Addr != "flaghost:4000" || cfg.DBName != "d" {
		t.Errorf("flags: %s@%s/%s pw=%q", cfg.User, cfg.Addr, cfg.DBName, cfg.Passwd)
	}

	// --no-defaults: built-in defaults only.
	cfg, _ = resolve(t, Options{NoDefaults: true, Port: 3307})
	if cfg.User != DefaultUser || cfg.Passwd != "" || cfg.Addr != "127.0.0.1:3307" {
		t.Errorf("no defaults: %s@%s pw=%q", cfg.User, cfg.Addr, cfg.Passwd)
	}

	// --defaults-file replaces ~/.my.cnf.
	cfg, _ = resolve(t, Options{DefaultsFile: "testdata/extra.cnf"})
	if cfg.User != DefaultUser || cfg.Passwd != " spaced\t" || cfg.Addr != "127.0.0.1:3306" {
		t.Errorf("defaults file: %s@%s pw=%q", cfg.User, cfg.Addr, cfg.Passwd)
	}
}

func TestSocketFromOptionFile(t *testing.T) {
	home(t, "[client]\nsocket=/run/x.sock\n")
	o := Options{}
	if names, err := o.NamesServer(); err != nil || !names {
		t.Errorf("NamesServer = %v, %v; a socket in ~/.my.cnf names a server", names, err)
	}
	cfg, ep := resolve(t, o)
	if cfg.Net != "unix" || ep.Name != "/run/x.sock" {
		t.Errorf("net %s name %s", cfg.Net, ep.Name)
	}
	// An explicit --host wins over the file's socket.
	cfg, _ = resolve(t, Options{Host: "h"})
	if cfg.Net != "tcp" || cfg.Addr != "h:3306" {
		t.Errorf("net %s addr %s", cfg.Net, cfg.Addr)
	}
}

func TestNamesServer(t *testing.T) {
	home(t, "[client]\nuser=u\npassword=p\n")
	for _, c := range []struct {
		o    Options
		want bool
	}{
		{Options{}, false}, // credentials alone: still the sandbox
		{Options{User: "x"}, false},
		{Options{Host: "h"}, true},
		{Options{Port: 1}, true},
		{Options{DSNs: []string{"u@tcp(h:1)/"}}, true},
		{Options{DefaultsFile: "testdata/extra.cnf"}, true},
	} {
		got, err := c.o.NamesServer()
		if err != nil || got != c.want {
			t.Errorf("%+v: %v, %v; want %v", c.o, got, err, c.want)
		}
	}
}

func TestDSNs(t *testing.T) {
	home(t, "[client]\nuser=ignored\nhost=ignored\n")
	r, err := (&Options{DSNs: []string{
		"u:secret@tcp(node1:3306)/",
		"u:secret@tcp(node2:3306)/other?timeout=3s",
		"u:secret@unix(/run/my.sock)/",
	}}).Resolve()
	if err != nil {
		t.Fatal(err)
	}
	names := []string{"node1:3306", "node2:3306", "/run/my.sock"}
	dbs := []string{DefaultDatabase, "other", DefaultDatabase}
	for i, ep := range r.Endpoints {
		if ep.Name != names[i] {
			t.Errorf("endpoint %d name %q, want %q", i, ep.Name, names[i])
		}
		if strings.Contains(ep.Name, "secret") {
			t.Errorf("endpoint name %q holds the password", ep.Name)
		}
		cfg, _ := ep.Config()
		if cfg.User != "u" || cfg.Passwd != "secret" || cfg.DBName != dbs[i] {
			t.Errorf("endpoint %d: %s pw %q db %s", i, cfg.User, cfg.Passwd, cfg.DBName)
		}
	}
	if r.Database != DefaultDatabase {
		t.Errorf("database %q", r.Database)
	}
	_, err = (&Options{DSNs: []string{"u:secret@tcp(x"}}).Resolve()
	if err == nil || !usage.Is(err) || strings.Contains(err.Error(), "secret") {
		t.Errorf("bad DSN: %v; want a usage error without the password", err)
	}
	_, err = (&Options{DSNs: []string{"u@tcp(x:1)/"}, Host: "h"}).Resolve()
	if err == nil || !usage.Is(err) {
		t.Errorf("--dsn with --host: %v, want a usage error", err)
	}
}

func TestTLSModes(t *testing.T) {
	home(t, "")
	for mode, want := range map[string]string{
		"":          "",
		"DISABLED":  "false",
		"preferred": "preferred",
		"REQUIRED":  "skip-verify",
	} {
		cfg, _ := resolve(t, Options{Host: "h", SSLMode: mode})
		if cfg.TLSConfig != want {
			t.Errorf("--ssl-mode %q: tls=%q, want %q", mode, cfg.TLSConfig, want)
		}
	}
	for _, o := range []Options{
		{Host: "h", SSLMode: "bogus"},
		{Host: "h", SSLMode: "VERIFY_CA"},
		{Host: "h", SSLCA: "testdata/my.cnf"},
		{Host: "h", SSLCert: "testdata/my.cnf"},
	} {
		if _, err := o.Resolve(); err == nil || !usage.Is(err) {
			t.Errorf("%+v: %v, want a usage error", o, err)
		}
	}
}

// TestPingMasksPassword: a failed ping is a user error naming the endpoint,
// the DSN's password masked wherever the message repeats it, whatever the
// password holds ('@' and ':' included).
func TestPingMasksPassword(t *testing.T) {
	for _, password := range []string{"s3cret", "p@ss:w"} {
		cfg := mysql.NewConfig()
		cfg.User, cfg.Passwd, cfg.Net, cfg.Addr = "root", password, "tcp", "127.0.0.1:1"
		cfg.Timeout = time.Second
		ep := Endpoint{Name: "127.0.0.1:1", DSN: cfg.FormatDSN()}
		db, err := sql.Open("mysql", ep.DSN)
		if err != nil {
			t.Fatal(err)
		}
		err = ep.Ping(context.Background(), db)
		db.Close()
		if err == nil || !usage.Is(err) || !strings.Contains(err.Error(), "cannot connect to 127.0.0.1:1") {
			t.Fatalf("Ping of a closed port: %v, want a user error naming the endpoint", err)
		}
	}
	if got := redact(errors.New("bad password p@ss:w (using password: YES)"), "p@ss:w"); got != "bad password **** (using password: YES)" {
		t.Errorf("redact = %q", got)
	}
	if got := redact(errors.New("Access denied for user 'root'@'db'"), ""); got != "Access denied for user 'root'@'db'" {
		t.Errorf("redact without password = %q", got)
	}
}

// TestUserNameWithColon: a user name may hold ':' (a DSN cannot say so:
// the driver takes what follows as the password), and the endpoint keeps
// it whole, as it keeps a password with ':' and '@'.
func TestUserNameWithColon(t *testing.T) {
	home(t, "")
	cfg, ep := resolve(t, Options{Host: "h", User: "a:b", Password: "p@ss:w"})
	if cfg.User != "a:b" || cfg.Passwd != "p@ss:w" {
		t.Errorf("user %q password %q, want a:b and p@ss:w", cfg.User, cfg.Passwd)
	}
	cfg.User = "changed"
	if again, _ := ep.Config(); again.User != "a:b" {
		t.Errorf("Config hands out the endpoint's own configuration: user now %q", again.User)
	}
}
