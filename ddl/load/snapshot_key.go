package load

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/joinbench/joinbench/ddl"
)

// snapshotFormat changes whenever what a snapshot holds or how it is taken
// changes, so that snapshots of an older layout stop matching. Format 2
// records a checksum of every file; format 1 snapshots, which cannot be
// verified, are no longer restored.
const snapshotFormat = 2

// SnapshotKey is everything that decides what a snapshot's files hold: the
// dataset (which tables, which rows) and the server that wrote the files
// (their on-disk format). Two prepares with equal keys load the same rows
// into tables of the same definition on servers that write the same page
// format, so a snapshot of one restores as the other.
type SnapshotKey struct {
	Format  int        `json:"format"`
	Dataset DatasetKey `json:"dataset"`
	Server  ServerKey  `json:"server"`
}

// DatasetKey is what the rows and the tables are. Threads, chunk size and
// load method are left out: the rows are the same whatever they are.
type DatasetKey struct {
	Tables       int    `json:"tables"`
	TableName    string `json:"table_name"`
	Engine       string `json:"engine"`
	TableOptions string `json:"table_options"`
	ClientIDs    bool   `json:"client_ids"`
	NoPrimaryKey bool   `json:"no_primary_key"`
	Seed         uint64 `json:"seed"`
	TableSize    int64  `json:"table_size"`
	Distribution string `json:"distribution"`
	// IndexesDuringLoad: indexes filled row by row leave their pages
	// fuller or emptier than a sorted build, which queries can feel.
	IndexesDuringLoad bool `json:"indexes_during_load"`
	// Schema digests the CREATE TABLE statements, so that a change to the
	// built-in schema in a later version stops older snapshots matching.
	Schema string `json:"schema"`
	// Rows digests the first, middle and last row of every table, so that
	// a change to the generator does the same.
	Rows string `json:"rows"`
}

// ServerKey is what decides the format of a server's tablespace files.
// Empty fields are variables the server does not have.
type ServerKey struct {
	Version            string `json:"version"`             // @@version
	PageSize           string `json:"page_size"`           // @@innodb_page_size
	DefaultRowFormat   string `json:"default_row_format"`  // @@innodb_default_row_format
	ChecksumAlgorithm  string `json:"checksum_algorithm"`  // @@innodb_checksum_algorithm
	CompressionDefault string `json:"compression_default"` // @@innodb_compression_default (MariaDB)
}

// NewSnapshotKey is the key of the dataset opts loads on a server of the
// given format. opts must have passed check (defaults applied).
func NewSnapshotKey(opts PrepareOptions, server ServerKey) (SnapshotKey, error) {
	d, err := newDatasetKey(opts)
	if err != nil {
		return SnapshotKey{}, err
	}
	return SnapshotKey{Format: snapshotFormat, Dataset: d, Server: server}, nil
}

// newDatasetKey is the dataset opts loads. opts must have passed check
// (defaults applied).
func newDatasetKey(opts PrepareOptions) (DatasetKey, error) {
	schema, err := opts.Schema.Normalize()
	if err != nil {
		return DatasetKey{}, err
	}
	creates, err := ddl.CreateStatements(schema)
	if err != nil {
		return DatasetKey{}, err
	}
	rows, err := sampleRowsDigest(schema, opts.Gen)
	if err != nil {
		return DatasetKey{}, err
	}
	return DatasetKey{
		Tables: schema.Tables, TableName: schema.TableName, Engine: schema.Engine,
		TableOptions: schema.TableOptions, ClientIDs: schema.ClientIDs, NoPrimaryKey: schema.NoPrimaryKey,
		Seed: opts.Gen.Seed, TableSize: opts.Gen.TableSize, Distribution: opts.Gen.Distribution.String(),
		IndexesDuringLoad: opts.IndexesDuringLoad,
		Schema:            digest([]byte(strings.Join(creates, ";\n"))),
		Rows:              rows,
	}, nil
}

// sampleRowsDigest digests rows 1, the middle one and the last of every
// table: any change to how rows are generated changes at least one of them.
func sampleRowsDigest(schema ddl.SchemaOptions, gen ddl.GenOptions) (string, error) {
	g, err := ddl.NewGenerator(gen)
	if err != nil {
		return "", err
	}
	var buf []byte
	for i := range schema.TableNames() {
		kind, n := ddl.MainTable, i+1
		if i >= schema.Tables {
			kind, n = ddl.LevelTable, i-schema.Tables+1
		}
		for _, id := range []int64{1, (gen.TableSize + 1) / 2, gen.TableSize} {
			buf = g.AppendRow(buf, kind, n, id, ddl.TSV)
		}
	}
	return digest(buf), nil
}

func digest(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// ID names the key: equal keys have equal IDs.
func (k SnapshotKey) ID() string {
	b, err := json.Marshal(k)
	if err != nil {
		panic(err) // plain strings and numbers always marshal
	}
	return digest(b)[:16]
}

// Name is the key's folder name in a store: the dataset in words, then
// the ID.
func (k SnapshotKey) Name() string {
	d := k.Dataset
	return fmt.Sprintf("%s%d-%d-seed%d-%s-%s", strings.ToLower(d.TableName), d.Tables, d.TableSize, d.Seed, d.Distribution, k.ID())
}

// Mismatch says why a snapshot taken with key k cannot stand for want,
// naming every difference; "" when they are equal.
func (k SnapshotKey) Mismatch(want SnapshotKey) string {
	var why []string
	add := differ(&why, "the target's")
	add("snapshot format", k.Format, want.Format)
	why = append(why, k.Dataset.differences(want.Dataset, "the target's")...)
	hs, ws := k.Server, want.Server
	add("server version", hs.Version, ws.Version)
	add("page size", hs.PageSize, ws.PageSize)
	add("default row format", hs.DefaultRowFormat, ws.DefaultRowFormat)
	add("checksum algorithm", hs.ChecksumAlgorithm, ws.ChecksumAlgorithm)
	add("page compression default", hs.CompressionDefault, ws.CompressionDefault)
	if len(why) == 0 {
		return ""
	}
	return "its " + strings.Join(why, "; its ")
}

// differences names every way d differs from want, as "seed 1, <whose> is
// 2" (whose: whom want belongs to, "the target's").
func (d DatasetKey) differences(want DatasetKey, whose string) []string {
	var why []string
	add := differ(&why, whose)
	add("tables", d.Tables, want.Tables)
	add("table name", d.TableName, want.TableName)
	add("engine", d.Engine, want.Engine)
	add("table options", d.TableOptions, want.TableOptions)
	add("client ids", d.ClientIDs, want.ClientIDs)
	add("no primary key", d.NoPrimaryKey, want.NoPrimaryKey)
	add("seed", d.Seed, want.Seed)
	add("table size", d.TableSize, want.TableSize)
	add("distribution", d.Distribution, want.Distribution)
	add("indexes during load", d.IndexesDuringLoad, want.IndexesDuringLoad)
	// The digests follow from the options above: they tell something new
	// only when those are equal.
	if len(why) == 0 && d.Schema != want.Schema {
		why = append(why, "built-in schema changed (another version of joinbench)")
	}
	if len(why) == 0 && d.Rows != want.Rows {
		why = append(why, "row generator changed (another version of joinbench)")
	}
	return why
}

// differ returns a function that appends to why "what have, whose is
// target" when have and target differ.
func differ(why *[]string, whose string) func(what string, have, target any) {
	return func(what string, have, target any) {
		if have != target {
			*why = append(*why, fmt.Sprintf("%s %v, %s is %v", what, orNone(have), whose, orNone(target)))
		}
	}
}

// SameDataset reports whether the two keys load the same rows into the
// same tables, whatever the server.
func (k SnapshotKey) SameDataset(o SnapshotKey) bool { return k.Dataset == o.Dataset }

func orNone(v any) any {
	if s, ok := v.(string); ok && s == "" {
		return "(none)"
	}
	return v
}
