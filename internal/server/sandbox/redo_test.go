package sandbox

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestRedoLogArg(t *testing.T) {
	for _, c := range []struct {
		out, want string
	}{
		{"mariadbd  Ver 10.11.6-MariaDB-0+deb12u1 for debian-linux-gnu", "--innodb-log-file-size=1G"},
		{"mysqld  Ver 10.4.32-MariaDB for Linux", "--innodb-log-file-size=512M"},
		{"mysqld  Ver 8.0.35 for Linux on x86_64 (MySQL Community Server - GPL)", "--innodb-redo-log-capacity=1G"},
		{"mysqld  Ver 8.0.35-27 for Linux on x86_64 (Percona Server (GPL), Release 27)", "--innodb-redo-log-capacity=1G"},
		{"mysqld  Ver 8.0.29 for Linux on x86_64 (MySQL Community Server - GPL)", "--innodb-log-file-size=512M"},
		{"mysqld  Ver 8.4.0 for Linux on x86_64 (MySQL Community Server - GPL)", "--innodb-redo-log-capacity=1G"},
		{"mysqld  Ver 5.7.44 for Linux on x86_64 (MySQL Community Server (GPL))", "--innodb-log-file-size=512M"},
	} {
		b, err := ParseVersion(c.out)
		if err != nil {
			t.Fatal(err)
		}
		if got := redoLogArg(b); got != c.want {
			t.Errorf("%s: %s, want %s", b, got, c.want)
		}
	}
}

// A named sandbox's binary comes back from its state file: version checks
// must read the same from it as from the probed binary.
func TestVersionChecksSurviveState(t *testing.T) {
	b, err := ParseVersion("mysqld  Ver 8.0.35 for Linux on x86_64 (MySQL Community Server - GPL)")
	if err != nil {
		t.Fatal(err)
	}
	js, err := json.Marshal(b)
	if err != nil {
		t.Fatal(err)
	}
	var loaded Binary
	if err := json.Unmarshal(js, &loaded); err != nil {
		t.Fatal(err)
	}
	if got, want := strings.Join(benchmarkArgs(&loaded, "1G"), " "), strings.Join(benchmarkArgs(b, "1G"), " "); got != want {
		t.Errorf("server options from the state file:\n%s\nwant\n%s", got, want)
	}
}
