// Package flavor names the MySQL-family server kinds and their versions:
// one type, used by lint (which flavour a corpus targets), by EXPLAIN capture
// (which syntax a server speaks) and by the sandbox (which options a binary
// takes). It is pure: it asks no server (server.DetectFlavor does) and links
// no driver, so offline commands can use it.
package flavor

import (
	"fmt"
	"strconv"
	"strings"
)

// Name is a server family.
type Name string

// The families joinbench knows.
const (
	MySQL   Name = "mysql"
	MariaDB Name = "mariadb"
	Percona Name = "percona"
	TiDB    Name = "tidb"
)

// Names lists the families in the order help texts give them.
var Names = []Name{MySQL, MariaDB, Percona, TiDB}

// ParseName accepts mysql, mariadb, percona and tidb, in any case.
func ParseName(s string) (Name, error) {
	n := Name(strings.ToLower(strings.TrimSpace(s)))
	for _, k := range Names {
		if n == k {
			return n, nil
		}
	}
	return "", fmt.Errorf("unknown flavour %q: want mysql, mariadb, percona or tidb", s)
}

// Title is the family's name as its vendor writes it.
func (n Name) Title() string {
	switch n {
	case MariaDB:
		return "MariaDB"
	case TiDB:
		return "TiDB"
	case Percona:
		return "Percona Server"
	}
	return "MySQL"
}

// Flavor is the kind and version of a MySQL-family server. The zero value
// means "not known"; Or gives a default.
type Flavor struct {
	Name    Name   // mysql, mariadb, percona, tidb; "" when not known
	Version string // e.g. 8.0.36, 10.11.9; for TiDB its own version (v7.5.0); "" when not known
	Galera  bool   // wsrep replication is on (PXC, MariaDB Galera Cluster)
}

// Or returns f, or def when f's family is not known.
func (f Flavor) Or(def Name) Flavor {
	if f.Name == "" {
		f.Name = def
	}
	return f
}

// Is reports whether f is of one of the families.
func (f Flavor) Is(names ...Name) bool {
	for _, n := range names {
		if f.Name == n {
			return true
		}
	}
	return false
}

func (f Flavor) String() string {
	s := string(f.Name) + " " + f.Version
	if f.Galera {
		s += " (galera)"
	}
	return s
}

// AtLeast reports whether the version is at least major.minor.patch.
func (f Flavor) AtLeast(major, minor, patch int) bool {
	v := parseVersion(f.Version)
	want := [3]int{major, minor, patch}
	for i := range v {
		if v[i] != want[i] {
			return v[i] > want[i]
		}
	}
	return true
}

// parseVersion reads the leading digits of up to three dot-separated
// parts: "8.0.36-28" gives 8 0 36, "v7.5.0" gives 7 5 0.
func parseVersion(s string) [3]int {
	var v [3]int
	s = strings.TrimPrefix(s, "v")
	for i, part := range strings.SplitN(s, ".", 3) {
		end := 0
		for end < len(part) && part[end] >= '0' && part[end] <= '9' {
			end++
		}
		v[i], _ = strconv.Atoi(part[:end])
		if end < len(part) {
			break
		}
	}
	return v
}

// Parse derives the flavour from SELECT VERSION() and @@version_comment.
// Galera is not in either: server.DetectFlavor asks for it.
func Parse(version, comment string) Flavor {
	// MariaDB may prefix 5.5.5- for old replication clients
	version = strings.TrimPrefix(version, "5.5.5-")
	lv, lc := strings.ToLower(version), strings.ToLower(comment)
	num := version
	if i := strings.IndexByte(num, '-'); i >= 0 {
		num = num[:i]
	}
	switch {
	case strings.Contains(lv, "tidb"):
		// 8.0.11-TiDB-v7.5.0: the MySQL protocol version, then TiDB's
		tv := version[strings.Index(lv, "tidb")+len("tidb"):]
		tv = strings.TrimPrefix(tv, "-")
		if i := strings.IndexAny(tv, "- "); i >= 0 {
			tv = tv[:i]
		}
		return Flavor{Name: TiDB, Version: tv}
	case strings.Contains(lv, "mariadb") || strings.Contains(lc, "mariadb"):
		return Flavor{Name: MariaDB, Version: num}
	case strings.Contains(lc, "percona"):
		return Flavor{Name: Percona, Version: num}
	default:
		return Flavor{Name: MySQL, Version: num}
	}
}
