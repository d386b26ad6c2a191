package explain

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Flavor is the kind and version of a MySQL-family server.
type Flavor struct {
	Name    string // mysql, mariadb, percona, tidb
	Version string // e.g. 8.0.36, 10.11.9; for TiDB its own version (v7.5.0)
	Galera  bool   // wsrep replication is on (PXC, MariaDB Galera Cluster)
}

func (f Flavor) String() string {
	s := f.Name + " " + f.Version
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

// ParseFlavor derives the flavor from SELECT VERSION() and
// @@version_comment.
func ParseFlavor(version, comment string) Flavor {
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
		return Flavor{Name: "tidb", Version: tv}
	case strings.Contains(lv, "mariadb") || strings.Contains(lc, "mariadb"):
		return Flavor{Name: "mariadb", Version: num}
	case strings.Contains(lc, "percona"):
		return Flavor{Name: "percona", Version: num}
	default:
		return Flavor{Name: "mysql", Version: num}
	}
}

// DetectFlavor asks the server for VERSION(), @@version_comment and its
// wsrep (Galera) state.
func DetectFlavor(ctx context.Context, db *sql.DB) (Flavor, error) {
	var version, comment string
	if err := db.QueryRowContext(ctx, "SELECT VERSION(), @@version_comment").Scan(&version, &comment); err != nil {
		return Flavor{}, fmt.Errorf("server version: %w", err)
	}
	fl := ParseFlavor(version, comment)
	if fl.Name == "tidb" {
		return fl, nil
	}
	var name, value string
	err := db.QueryRowContext(ctx, "SHOW GLOBAL VARIABLES LIKE 'wsrep_on'").Scan(&name, &value)
	switch {
	case errors.Is(err, sql.ErrNoRows):
	case err != nil:
		return Flavor{}, fmt.Errorf("wsrep_on: %w", err)
	default:
		fl.Galera = strings.EqualFold(value, "ON") || value == "1"
	}
	return fl, nil
}
