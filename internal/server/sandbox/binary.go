package sandbox

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/joinbench/joinbench/internal/flavor"
	"github.com/joinbench/joinbench/internal/usage"
)

// InstallHint is the one command that installs a server on Debian/Ubuntu.
const InstallHint = "apt-get install mariadb-server"

// Binary is a server executable and what its --version says.
type Binary struct {
	Path    string      `json:"path"`
	Flavor  flavor.Name `json:"flavor"`  // mariadb, mysql or percona
	Version string      `json:"version"` // e.g. 10.11.6 (without the -MariaDB suffix)
}

// searchDirs are looked in after PATH: server binaries live in sbin, which
// is not on an ordinary user's PATH.
var searchDirs = []string{"/usr/sbin", "/usr/local/sbin", "/usr/local/mysql/bin", "/usr/local/mysql/sbin"}

// FindBinary returns the server binary at path, or when path is empty the
// first mariadbd or mysqld found on PATH (then in the sbin directories).
// Not finding one, or a path that is not a MySQL-family server, is a user
// error.
func FindBinary(ctx context.Context, path string) (*Binary, error) {
	if path != "" {
		abs, err := filepath.Abs(path)
		if err != nil {
			return nil, usage.Errorf("--server-binary %s: %v", path, err)
		}
		st, err := os.Stat(abs)
		if err != nil {
			return nil, usage.Errorf("--server-binary %s: %v", path, errors.Unwrap(err))
		}
		if st.IsDir() || st.Mode()&0o111 == 0 {
			return nil, usage.Errorf("--server-binary %s: not an executable file", path)
		}
		return probe(ctx, abs, "--server-binary "+path)
	}
	for _, name := range []string{"mariadbd", "mysqld"} {
		if p, err := exec.LookPath(name); err == nil {
			return probe(ctx, p, p)
		}
		for _, d := range searchDirs {
			p := filepath.Join(d, name)
			if st, err := os.Stat(p); err == nil && !st.IsDir() && st.Mode()&0o111 != 0 {
				return probe(ctx, p, p)
			}
		}
	}
	return nil, usage.Errorf("no mariadbd or mysqld found on PATH: install one with '%s', or give --server-binary", InstallHint)
}

var verRE = regexp.MustCompile(`\bVer\s+(\d+)\.(\d+)\.(\d+)(\S*)`)

func probe(ctx context.Context, path, what string) (*Binary, error) {
	ctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, path, "--no-defaults", "--version").CombinedOutput()
	if err != nil {
		return nil, usage.Errorf("%s: not a MySQL-family server (--version: %v: %s)", what, err, firstLine(string(out)))
	}
	b, err := ParseVersion(string(out))
	if err != nil {
		return nil, usage.Errorf("%s: not a MySQL-family server: %v", what, err)
	}
	b.Path = path
	return b, nil
}

// ParseVersion reads the output of "mysqld --version".
func ParseVersion(out string) (*Binary, error) {
	m := verRE.FindStringSubmatch(out)
	if m == nil {
		return nil, fmt.Errorf("--version said %q", firstLine(out))
	}
	b := &Binary{Flavor: flavor.MySQL, Version: m[1] + "." + m[2] + "." + m[3]}
	switch {
	case strings.Contains(m[4], "MariaDB") || strings.Contains(out, "MariaDB"):
		b.Flavor = flavor.MariaDB
	case strings.Contains(out, "Percona"):
		b.Flavor = flavor.Percona
	}
	if b.Flavor != flavor.MariaDB && m[4] != "" {
		// Percona Server 8 says "8.0.35-27": keep the build suffix.
		b.Version += m[4]
	}
	return b, nil
}

// atLeast reports whether the version is major.minor.patch or newer. It
// reads Version, so a Binary loaded from a sandbox's state compares as the
// one probed.
func (b *Binary) atLeast(major, minor, patch int) bool {
	return b.Flavour().AtLeast(major, minor, patch)
}

// String is e.g. "mariadbd 10.11.6 (mariadb)".
func (b Binary) String() string {
	return fmt.Sprintf("%s %s (%s)", filepath.Base(b.Path), b.Version, b.Flavor)
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return s
}

// Flavour is the binary's family and version as the one flavour type.
func (b *Binary) Flavour() flavor.Flavor {
	return flavor.Flavor{Name: b.Flavor, Version: b.Version}
}
