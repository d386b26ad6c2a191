package sandbox

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/joinbench/joinbench/internal/usage"
)

func TestParseVersion(t *testing.T) {
	for out, want := range map[string]string{
		"mariadbd  Ver 10.11.6-MariaDB-0+deb12u1 for debian-linux-gnu on x86_64 (Debian 12)":                 "mariadb 10.11.6",
		"/usr/sbin/mysqld  Ver 10.3.39-MariaDB-0+deb10u1 for debian-linux-gnu on x86_64 (Debian 10)":         "mariadb 10.3.39",
		"/usr/sbin/mysqld  Ver 8.0.36 for Linux on x86_64 (MySQL Community Server - GPL)":                    "mysql 8.0.36",
		"/usr/sbin/mysqld  Ver 8.4.0 for Linux on x86_64 (MySQL Community Server - GPL)":                     "mysql 8.4.0",
		"/usr/sbin/mysqld  Ver 8.0.35-27 for Linux on x86_64 (Percona Server (GPL), Release '27', Revision)": "percona 8.0.35",
		"mysqld  Ver 5.7.44 for linux-glibc2.12 on x86_64 (MySQL Community Server (GPL))":                    "mysql 5.7.44",
	} {
		b, err := ParseVersion(out)
		if err != nil {
			t.Errorf("%s: %v", out, err)
			continue
		}
		got := string(b.Flavor) + " " + strings.TrimSuffix(b.Version, "-27")
		if got != want {
			t.Errorf("%s: got %s, want %s", out, got, want)
		}
	}
	if _, err := ParseVersion("bash, version 5.2"); err == nil {
		t.Error("want an error for a non-server")
	}
}

func TestFindBinaryErrors(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	script := filepath.Join(dir, "notaserver")
	if err := os.WriteFile(script, []byte("#!/bin/sh\necho hello\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	plain := filepath.Join(dir, "plain")
	if err := os.WriteFile(plain, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{filepath.Join(dir, "missing"), dir, plain, script} {
		_, err := FindBinary(ctx, p)
		if err == nil || !usage.Is(err) {
			t.Errorf("%s: %v, want a usage error", p, err)
			continue
		}
		if msg := err.Error(); strings.Contains(msg, "\n") || !strings.HasPrefix(msg, "--server-binary ") {
			t.Errorf("%s: message %q should be one line naming the flag", p, msg)
		}
	}
	t.Setenv("PATH", dir)
	saved := searchDirs
	searchDirs = nil
	defer func() { searchDirs = saved }()
	_, err := FindBinary(ctx, "")
	if err == nil || !usage.Is(err) || !strings.Contains(err.Error(), InstallHint) {
		t.Errorf("no binary: %v, want a usage error with the install command", err)
	}
}
