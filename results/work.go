package results

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"path/filepath"
	"sort"
)

// The work of sampled executions (package work): one row per sample in
// work-<host>-<n>.parquet, its row type Work. Samples are few (a
// percent of a scenario's time at most), so they are journalled as they
// come, as server counters are (work-<host>-<n>.rows, a frame per Write),
// made the Parquet file of the same number every StatusFileAge and at
// Close, and a killed client's journal is made Parquet by Recover.

// Globs of the work files and of their journals.
const (
	WorkGlob        = "work-*.parquet"
	WorkJournalGlob = "work-*" + journalSuffix
)

var workSchema = rowSchemaOf[Work]()

// workJournal is the work journal. A sample is rare and its row has
// lists of tables, so its codec is JSON (each row a uvarint length and its
// encoding) rather than a codec of its own: it carries every field of
// Work as it is, with nulls, and costs nothing that counts.
var workJournal = &journalKind[Work]{
	magics:     []string{"JBWORK1\n"},
	newEncoder: func() rowEncoder[Work] { return workEncoder{} },
	newDecoder: func(int) rowDecoder[Work] { return workDecoder{} },
}

type workEncoder struct{}

func (workEncoder) appendRows(b []byte, rows []Work) []byte {
	for i := range rows {
		j, err := json.Marshal(&rows[i])
		if err != nil { // a Work has nothing JSON cannot encode
			panic(fmt.Sprintf("results: work row: %v", err))
		}
		b = binary.AppendUvarint(b, uint64(len(j)))
		b = append(b, j...)
	}
	return b
}

type workDecoder struct{}

func (workDecoder) decodeRows(p []byte, n int, dst []Work) ([]Work, error) {
	base := len(dst)
	for range n {
		l, k := binary.Uvarint(p)
		if k <= 0 || l > uint64(len(p)-k) {
			return dst[:base], errBadRow
		}
		var w Work
		if err := json.Unmarshal(p[k:k+int(l)], &w); err != nil {
			return dst[:base], errBadRow
		}
		w.Time = w.Time.UTC()
		dst = append(dst, w)
		p = p[k+int(l):]
	}
	if len(p) != 0 {
		return dst[:base], errBadRow
	}
	return dst, nil
}

// WorkSampling is what run.json says of a run's work samples.
type WorkSampling struct {
	// Budget is the share of each scenario's execution time its samples
	// may cost (a period is the shortest power of two within it), and
	// FirstEvents the events at the start of every thread sampled whatever
	// the period.
	Budget      float64 `json:"budget"`
	FirstEvents int64   `json:"first_events"`
	// Samples are the rows of the work files; Failed those of them whose
	// measurement failed (their error column says why), Dropped the reads
	// not sampled because the endpoint's sampler was still busy with
	// earlier ones, or still was when the run ended (a few seconds after
	// its time is up, the samples not taken yet are given up).
	Samples int64 `json:"samples"`
	Failed  int64 `json:"failed,omitempty"`
	Dropped int64 `json:"dropped,omitempty"`
	// Periods are, per scenario, the longest sampling period a thread
	// reached: about one execution in that many was sampled after the
	// first events.
	Periods map[string]uint64 `json:"periods,omitempty"`
	// Reads says how reads were measured ("mariadb_analyze",
	// "mysql_analyze"), or why they were not; Writes the same for writes
	// ("session_status").
	Reads  string `json:"reads,omitempty"`
	Writes string `json:"writes,omitempty"`
	// When says when reads were sampled: "after" the measured phase, once
	// the workers stopped (so that no measured execution shared the server
	// with a sample), or "during" it (--work during); "" in runs made
	// before reads could wait, which sampled them during the run.
	When string `json:"when,omitempty"`
	// PassSeconds is how long the work pass after the measured phase took.
	PassSeconds float64 `json:"pass_seconds,omitempty"`
}

// WorkWriter streams work rows to work-<host>-<n>.parquet files through
// journals, as StatusWriter does server counters. An empty RunID or
// ClientHost is set, in place, to the run's, and the segment to this
// client's. It is safe for concurrent use.
type WorkWriter struct {
	seriesWriter[Work]
}

func newWorkWriter(d *RunDir, prefix string) *WorkWriter {
	return &WorkWriter{seriesWriter[Work]{d: d, prefix: prefix, n: &d.workN, kind: workJournal,
		stamp: func(r *Work) {
			if r.RunID == "" {
				r.RunID = d.runID
			}
			if r.ClientHost == "" {
				r.ClientHost = d.clientHost
			}
			r.Segment = int32(d.segment)
		}}}
}

// ReadWork reads every work row of a run folder (every work-*.parquet:
// one row per sampled execution, few). A folder without work files, a
// run made before work was sampled or with --work off, gives none. A file
// with a figure outside its domain (checkWork) is warned about and none
// of its rows is returned.
func ReadWork(dir string, warn Warner) ([]Work, error) {
	paths, err := filepath.Glob(filepath.Join(globEscape(dir), WorkGlob))
	if err != nil {
		return nil, fmt.Errorf("list %s: %w", dir, err)
	}
	sort.Strings(paths)
	var out []Work
	for _, p := range paths {
		var file []Work
		var bad error
		if _, err := scanFile(p, warn, allColumns[Work](), func(w *Work) error {
			if bad == nil {
				if err := checkWork(w); err != nil {
					bad = fmt.Errorf("row %d (%s, thread %d, event %d): %w", len(file)+1, w.Scenario, w.Thread, w.Event, err)
				}
			}
			file = append(file, w.Clone()) // the reader reuses w
			return nil
		}); err != nil {
			return nil, err
		}
		if bad != nil {
			// A damaged or forged file: none of its work is compared.
			warn.warn(fmt.Errorf("%s: %v: the file's %d work samples are not used", p, bad, len(file)))
			continue
		}
		out = append(out, file...)
	}
	return out, nil
}
