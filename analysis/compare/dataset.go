package compare

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/joinbench/joinbench/results"
)

// Two runs on different data measure the data as much as the server: a
// candidate with half as many rows again is "slower" whatever it is. So
// the datasets prepare recorded are compared before any verdict, and
// runs on different data are refused (DatasetsDiffer) unless the caller
// accepts them: a comparison that blames the server for the data is worse
// than none. Data changed since prepare (by runs that wrote) is only
// warned about: it is what write workloads do, to both sides alike.

// DatasetsDiffer: the runs compared ran on different data.
type DatasetsDiffer struct {
	// Between names what differs: "the base and the candidate", or the
	// runs of one side.
	Between string
	// Differences are "name base vs candidate", by run.json key.
	Differences []string
}

func (e *DatasetsDiffer) Error() string {
	return fmt.Sprintf("%s ran on different data (%s): a difference would come from the data, not from the server; "+
		"prepare both alike (joinbench prepare with the same --tables, --table-size, --seed, ...), or accept it with --allow-different-data",
		e.Between, strings.Join(e.Differences, "; "))
}

// DataModified: the runs ran on the same prepared data, but its contents
// when each started differ (or, in runs made before contents were
// digested, a sample of its rows): something wrote to it in between.
type DataModified struct {
	Between string
	// Differences name the tables whose contents differ and how ("level1
	// 300 vs 301 rows"); empty when only the older sample of rows tells.
	Differences []string
}

func (w *DataModified) Error() string {
	if len(w.Differences) == 0 {
		return fmt.Sprintf("%s ran on the same prepared data, but a sample of its rows differs: runs that wrote changed it since prepare", w.Between)
	}
	return fmt.Sprintf("%s ran on the same prepared data, but its contents differ when each started (%s): something wrote to it in between",
		w.Between, strings.Join(w.Differences, "; "))
}

// ContentsDiffer names the tables whose contents differ between two
// digests, and how: "level1 300 vs 301 rows", "level2 other rows (the same
// 300)"; nil when every table of both is the same, or either is not known.
// Index definitions are not contents (IndexesDiffer).
func ContentsDiffer(base, cand map[string]results.TableContents) []string {
	if base == nil || cand == nil {
		return nil
	}
	var out []string
	for _, t := range slices.Sorted(maps.Keys(joinTables(base, cand))) {
		b, okB := base[t]
		c, okC := cand[t]
		switch {
		case !okB || !okC:
			out = append(out, fmt.Sprintf("%s digested on one side only", t))
		case b.Ranges != c.Ranges || b.Excluded != c.Excluded:
			out = append(out, fmt.Sprintf("%s digested differently (%d vs %d ranges of ids)", t, b.Ranges, c.Ranges))
		case b.Rows != c.Rows:
			out = append(out, fmt.Sprintf("%s %d vs %d rows", t, b.Rows, c.Rows))
		case b.Checksum != c.Checksum:
			out = append(out, fmt.Sprintf("%s other rows (the same %d)", t, b.Rows))
		}
	}
	return out
}

// IndexesDiffer names the tables whose index definitions differ between
// two digests (DDL between the runs): the same rows read through other
// indexes, which is what work compares, but not an A/A.
func IndexesDiffer(base, cand map[string]results.TableContents) []string {
	var out []string
	for _, t := range slices.Sorted(maps.Keys(joinTables(base, cand))) {
		if b, c := base[t], cand[t]; b.Indexes != "" && c.Indexes != "" && b.Indexes != c.Indexes {
			out = append(out, t)
		}
	}
	return out
}

func joinTables(a, b map[string]results.TableContents) map[string]bool {
	out := map[string]bool{}
	for k := range a {
		out[k] = true
	}
	for k := range b {
		out[k] = true
	}
	return out
}

// DatasetUnknown: one of the runs compared records no dataset, so that the
// data cannot be told the same.
type DatasetUnknown struct{ Run string }

func (w *DatasetUnknown) Error() string {
	return fmt.Sprintf("%s records no dataset (prepared by an older joinbench, or tables of another origin): that both sides ran on the same data cannot be checked", w.Run)
}

// datasetFields are what makes two datasets the same data, by run.json
// key.
var datasetFields = []struct {
	key   string
	value func(*results.Dataset) any
}{
	{"tables", func(d *results.Dataset) any { return d.Tables }},
	{"table_name", func(d *results.Dataset) any { return d.TableName }},
	{"table_size", func(d *results.Dataset) any { return d.TableSize }},
	{"seed", func(d *results.Dataset) any { return d.Seed }},
	{"distribution", func(d *results.Dataset) any { return d.Distribution }},
	{"engine", func(d *results.Dataset) any { return d.Engine }},
	{"table_options", func(d *results.Dataset) any { return d.TableOptions }},
	{"client_ids", func(d *results.Dataset) any { return d.ClientIDs }},
	{"no_primary_key", func(d *results.Dataset) any { return d.NoPrimaryKey }},
	{"indexes_during_load", func(d *results.Dataset) any { return d.IndexesDuringLoad }},
	{"schema", func(d *results.Dataset) any { return short(d.Schema) }},
	{"generated", func(d *results.Dataset) any { return short(d.Generated) }},
}

// short is the start of a digest, enough to tell two apart in a message.
func short(digest string) string { return digest[:min(len(digest), 12)] }

// SameDataset compares the datasets two runs ran on (a and b name them,
// for messages: "the base", "the candidate"): a *DatasetsDiffer when they
// are different data, a *DataModified when the contents of the same
// prepared data differ when each run started (the digests of runs that
// recorded them; else a sample of rows), a *DatasetUnknown when only one records its dataset; nil
// when they are the same, or neither records one.
func SameDataset(a, b string, base, cand *results.Dataset) error {
	between := a + " and " + b
	switch {
	case base == nil && cand == nil:
		return nil
	case base == nil:
		return &DatasetUnknown{Run: a}
	case cand == nil:
		return &DatasetUnknown{Run: b}
	}
	var diffs []string
	for _, f := range datasetFields {
		if b, c := f.value(base), f.value(cand); b != c {
			diffs = append(diffs, fmt.Sprintf("%s %v vs %v", f.key, b, c))
		}
	}
	for _, t := range slices.Sorted(maps.Keys(joinKeys(base.Rows, cand.Rows))) {
		if b, c := base.Rows[t], cand.Rows[t]; b != c {
			diffs = append(diffs, fmt.Sprintf("rows of %s %d vs %d", t, b, c))
		}
	}
	if len(diffs) > 0 {
		return &DatasetsDiffer{Between: between, Differences: diffs}
	}
	if base.Contents != nil && cand.Contents != nil {
		if d := ContentsDiffer(base.Contents, cand.Contents); len(d) > 0 {
			return &DataModified{Between: between, Differences: d}
		}
		return nil
	}
	if base.Sample != "" && cand.Sample != "" && base.Sample != cand.Sample {
		return &DataModified{Between: between}
	}
	return nil
}

func joinKeys(a, b map[string]int64) map[string]bool {
	out := map[string]bool{}
	for k := range a {
		out[k] = true
	}
	for k := range b {
		out[k] = true
	}
	return out
}
