package load

import (
	"strings"
	"testing"

	"github.com/joinbench/joinbench/ddl"
)

var testServerKey = ServerKey{Version: "10.11.19-MariaDB", PageSize: "16384", DefaultRowFormat: "dynamic", ChecksumAlgorithm: "full_crc32", CompressionDefault: "off"}

func keyOf(t *testing.T, mod func(*PrepareOptions)) SnapshotKey {
	t.Helper()
	o := baseOpts()
	if mod != nil {
		mod(&o)
	}
	if err := o.check(); err != nil {
		t.Fatal(err)
	}
	k, err := NewSnapshotKey(o, testServerKey)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func TestSnapshotKeyIgnoresHowRowsAreSent(t *testing.T) {
	base := keyOf(t, nil)
	for name, mod := range map[string]func(*PrepareOptions){
		"threads":    func(o *PrepareOptions) { o.Threads = 7 },
		"chunk size": func(o *PrepareOptions) { o.ChunkSize = 13 },
		"method":     func(o *PrepareOptions) { o.Method = MethodInsert },
		"no analyze": func(o *PrepareOptions) { o.NoAnalyze = true },
		"recreate":   func(o *PrepareOptions) { o.Recreate = true },
		"defaults spelled out": func(o *PrepareOptions) {
			o.Schema.Engine, o.Schema.TableName, o.Schema.TableOptions = "InnoDB", "main", ddl.DefaultTableOptions
		},
	} {
		if k := keyOf(t, mod); k != base || k.ID() != base.ID() {
			t.Errorf("%s changed the key: %s", name, k.Mismatch(base))
		}
	}
}

func TestSnapshotKeyChangesWithTheDataset(t *testing.T) {
	base := keyOf(t, nil)
	for _, c := range []struct {
		field string
		mod   func(*PrepareOptions)
	}{
		{"tables", func(o *PrepareOptions) { o.Schema.Tables = 3 }},
		{"table name", func(o *PrepareOptions) { o.Schema.TableName = "fact" }},
		{"table options", func(o *PrepareOptions) { o.Schema.TableOptions = "ROW_FORMAT=COMPACT" }},
		{"client ids", func(o *PrepareOptions) { o.Schema.ClientIDs = true }},
		{"no primary key", func(o *PrepareOptions) { o.Schema.NoPrimaryKey = true }},
		{"seed", func(o *PrepareOptions) { o.Gen.Seed++ }},
		{"table size", func(o *PrepareOptions) { o.Gen.TableSize++ }},
		{"distribution", func(o *PrepareOptions) { o.Gen.Distribution = ddl.Zipf }},
		{"indexes during load", func(o *PrepareOptions) { o.IndexesDuringLoad = true }},
	} {
		k := keyOf(t, c.mod)
		if k.ID() == base.ID() || k.SameDataset(base) {
			t.Errorf("%s: same key", c.field)
		}
		if why := k.Mismatch(base); !strings.Contains(why, "its "+c.field+" ") {
			t.Errorf("%s: the reason does not name it: %q", c.field, why)
		}
	}
}

func TestSnapshotKeyServerMismatchNamesEachDifference(t *testing.T) {
	base := keyOf(t, nil)
	other := base
	other.Server.Version = "11.4.2-MariaDB"
	other.Server.PageSize = "65536"
	if !other.SameDataset(base) {
		t.Fatal("another server made another dataset")
	}
	if other.ID() == base.ID() || other.Name() == base.Name() {
		t.Fatal("another server, same name")
	}
	why := other.Mismatch(base)
	for _, want := range []string{"its server version 11.4.2-MariaDB, the target's is 10.11.19-MariaDB", "its page size 65536, the target's is 16384"} {
		if !strings.Contains(why, want) {
			t.Errorf("reason %q lacks %q", why, want)
		}
	}
	if base.Mismatch(base) != "" {
		t.Errorf("a key mismatches itself: %s", base.Mismatch(base))
	}
	older := base
	older.Format--
	if !strings.Contains(older.Mismatch(base), "snapshot format") {
		t.Errorf("format change not named: %s", older.Mismatch(base))
	}
}

func TestSnapshotKeyDigestsSchemaAndRows(t *testing.T) {
	base := keyOf(t, nil)
	k := base
	k.Dataset.Rows = strings.Repeat("0", 64)
	if !strings.Contains(k.Mismatch(base), "row generator changed") {
		t.Errorf("rows digest: %s", k.Mismatch(base))
	}
	k = base
	k.Dataset.Schema = strings.Repeat("0", 64)
	if !strings.Contains(k.Mismatch(base), "built-in schema changed") {
		t.Errorf("schema digest: %s", k.Mismatch(base))
	}
	// the digest follows the rows: another seed with the same sizes
	// changes it even though the schema is the same
	seeded := keyOf(t, func(o *PrepareOptions) { o.Gen.Seed = 1234 })
	if seeded.Dataset.Rows == base.Dataset.Rows || seeded.Dataset.Schema != base.Dataset.Schema {
		t.Error("the digests do not follow rows and schema")
	}
}

func TestSnapshotKeyName(t *testing.T) {
	k := keyOf(t, nil)
	want := "main2-1500-seed99-uniform-" + k.ID()
	if k.Name() != want {
		t.Errorf("name %s, want %s", k.Name(), want)
	}
	if len(k.ID()) != 16 {
		t.Errorf("id %q", k.ID())
	}
}
