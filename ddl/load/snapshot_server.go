package load

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/joinbench/joinbench/internal/sqllex"
	"github.com/joinbench/joinbench/internal/usage"
)

// snapshotServer is what saving and restoring a snapshot need of the
// server: the format of its files (the key's server part) and the folder
// of the current database in its data directory, checked to be on this
// machine and writable.
type snapshotServer struct {
	Key      ServerKey
	Database string
	// Dir is the database's folder in the server's data directory.
	Dir string
	// lowerCase: the server stores names in lower case
	// (lower_case_table_names=1), and so names its files.
	lowerCase bool
	// binlog: the server writes a binary log, which would send replicas
	// ALTER TABLE ... IMPORT TABLESPACE without the files.
	binlog bool
}

func on(v string) bool { return strings.EqualFold(v, "ON") || v == "1" }

// plainName is what a database or table name must look like for its file
// to carry the same name: the server encodes other characters in file
// names (@0024 for $), which snapshots do not follow.
var plainName = regexp.MustCompile(`^[A-Za-z0-9_]+$`)

// inspectSnapshotServer asks the server for its file format and data
// directory and checks that the current database's folder is reachable
// here: a local, writable folder that holds the file of a table the server
// has just created. Anything else is a user error giving the reason.
func inspectSnapshotServer(ctx context.Context, db *sql.DB) (*snapshotServer, error) {
	vars := map[string]string{}
	rows, err := db.QueryContext(ctx, `SHOW GLOBAL VARIABLES WHERE Variable_name IN
		('version', 'innodb_page_size', 'innodb_default_row_format', 'innodb_checksum_algorithm',
		 'innodb_compression_default', 'datadir', 'innodb_file_per_table', 'lower_case_table_names',
		 'log_bin', 'wsrep_on')`)
	if err != nil {
		return nil, fmt.Errorf("snapshot: read the server's variables: %w", err)
	}
	for rows.Next() {
		var k, v string
		if err := rows.Scan(&k, &v); err != nil {
			rows.Close()
			return nil, fmt.Errorf("snapshot: read the server's variables: %w", err)
		}
		vars[strings.ToLower(k)] = v
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("snapshot: read the server's variables: %w", err)
	}
	if on(vars["wsrep_on"]) {
		return nil, usage.Errorf("--snapshot cannot restore into a Galera cluster node (wsrep_on=ON): the imported files would be on this node only")
	}
	if fpt := vars["innodb_file_per_table"]; fpt != "" && !on(fpt) {
		return nil, usage.Errorf("--snapshot needs innodb_file_per_table=ON: tables in the system tablespace cannot be exported")
	}
	dbName, err := currentDatabase(ctx, db)
	if err != nil {
		return nil, err
	}
	s := &snapshotServer{
		Key: ServerKey{
			Version: vars["version"], PageSize: vars["innodb_page_size"],
			DefaultRowFormat:   strings.ToLower(vars["innodb_default_row_format"]),
			ChecksumAlgorithm:  strings.ToLower(vars["innodb_checksum_algorithm"]),
			CompressionDefault: strings.ToLower(vars["innodb_compression_default"]),
		},
		Database:  dbName,
		lowerCase: vars["lower_case_table_names"] == "1",
		binlog:    on(vars["log_bin"]),
	}
	if !plainName.MatchString(dbName) {
		return nil, usage.Errorf("--snapshot: database name %q: the server names its folder with escapes for characters other than letters, digits and _, which snapshots do not follow; use a plain name", dbName)
	}
	datadir := vars["datadir"]
	if datadir == "" || !filepath.IsAbs(datadir) {
		return nil, usage.Errorf("--snapshot: the server's datadir %q is not an absolute path", datadir)
	}
	s.Dir = filepath.Join(datadir, s.fileName(dbName))
	if err := checkLocalDir(datadir, s.Dir); err != nil {
		return nil, err
	}
	if err := s.probe(ctx, db); err != nil {
		return nil, err
	}
	return s, nil
}

// checkLocalDir refuses a data directory that is not a folder this process
// can write to.
func checkLocalDir(datadir, dir string) error {
	fi, err := os.Stat(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return usage.Errorf("--snapshot: the server's datadir %s has no folder %s on this machine: the server must run on this machine (snapshots are copied into its data directory)", datadir, filepath.Base(dir))
	}
	if err != nil {
		return usage.Errorf("--snapshot: the server's data directory is not reachable here: %v", err)
	}
	if !fi.IsDir() {
		return usage.Errorf("--snapshot: %s is not a folder", dir)
	}
	if err := writable(dir); err != nil {
		return usage.Errorf("--snapshot: the server's database folder %s is not writable by this user (%v): run as the server's user or root", dir, err)
	}
	return nil
}

// probe creates a table with a random name and looks for its file in Dir:
// a folder of the same path on this machine that is not the server's (the
// server runs elsewhere, or in a container) does not get it.
func (s *snapshotServer) probe(ctx context.Context, db *sql.DB) error {
	var r [6]byte
	if _, err := rand.Read(r[:]); err != nil {
		return err
	}
	name := "jb_snapshot_probe_" + hex.EncodeToString(r[:])
	q := sqllex.QuoteIdent(name)
	if _, err := db.ExecContext(ctx, "CREATE TABLE "+q+" (i INT PRIMARY KEY) ENGINE=InnoDB"); err != nil {
		return fmt.Errorf("snapshot: create the probe table %s: %w", name, err)
	}
	_, statErr := os.Stat(s.filePath(name, ".ibd"))
	if _, err := db.ExecContext(ctx, "DROP TABLE "+q); err != nil {
		return fmt.Errorf("snapshot: drop the probe table %s: %w", name, err)
	}
	if statErr != nil {
		return usage.Errorf("--snapshot: %s is not the data directory of this server: a table it has just created has no file there (is the server on another machine or in a container?)", filepath.Dir(s.Dir))
	}
	return nil
}

// fileName is the name the server gives the file of a database or table.
func (s *snapshotServer) fileName(name string) string {
	if s.lowerCase {
		return strings.ToLower(name)
	}
	return name
}

// filePath is the path of a table's file with the given extension.
func (s *snapshotServer) filePath(table, ext string) string {
	return filepath.Join(s.Dir, s.fileName(table)+ext)
}

// cannotRestore says why a snapshot must not be imported into this server
// with these options, or "" when it may: a server writing a binary log
// would send replicas the imports without the files, unless the restore
// runs unlogged (SkipBinlog).
func (s *snapshotServer) cannotRestore(opts PrepareOptions) string {
	if s.binlog && !opts.SkipBinlog {
		return "the server writes a binary log, and replicas would get the imports without the files; add --skip-binlog to restore it unlogged (replicas then get no tables)"
	}
	return ""
}
