package results

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// A run split over N clients (--segment I/N) is one run folder that every
// client writes into at once: each names its files with its segment,
// executions-<host>-seg<i>-<n>.parquet, status-<host>-seg<i>-<n>.parquet
// and plans-seg<i>.parquet, and writes its own metadata, segment-<i>.json;
// segment 1 also writes the run-level run.json (the run's options as
// given, before they were shared out). No file is written by two clients.

// SegmentGlob matches the segments' metadata files.
const SegmentGlob = "segment-*.json"

// SegmentFile is the metadata file of segment i.
func SegmentFile(i int) string { return "segment-" + strconv.Itoa(i) + ".json" }

// CreateSegment opens segment index (of a split run) of <dir>/run=<runID>/,
// creating the folder unless another segment did: unlike Create, an
// existing folder is joined, but one where this segment already wrote its
// metadata is refused (the same segment twice, or a run id used before).
func CreateSegment(dir, runID, clientHost string, index int, opts Options) (*RunDir, error) {
	if err := CheckRunID(runID); err != nil {
		return nil, err
	}
	if index < 1 {
		return nil, fmt.Errorf("segment %d: segments are numbered from 1", index)
	}
	path := filepath.Join(dir, RunDirPrefix+runID)
	if err := os.MkdirAll(path, 0o755); err != nil {
		return nil, fmt.Errorf("run folder: %w", err)
	}
	// O_EXCL claims the segment: two clients given the same segment
	// cannot both write.
	f, err := os.OpenFile(filepath.Join(path, SegmentFile(index)), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		if errors.Is(err, os.ErrExist) {
			return nil, fmt.Errorf("run folder %s already has segment %d (%s): use a new run id", path, index, SegmentFile(index))
		}
		return nil, fmt.Errorf("run folder: %w", err)
	}
	f.Close()
	return newRunDir(path, runID, clientHost, index, opts), nil
}

// RunTaken reports whether run runID (segment of it, 0 when not split)
// was already written in dir: what Create and CreateSegment refuse, asked
// before anything is done. A split run's segments share one folder, so
// for them only the segment's own metadata file counts.
func RunTaken(dir, runID string, segment int) bool {
	path := filepath.Join(dir, RunDirPrefix+runID)
	if segment > 0 {
		path = filepath.Join(path, SegmentFile(segment))
	}
	_, err := os.Stat(path)
	return err == nil
}

// WriteRunLevel writes the run-level run.json of a split run (segment 1
// does), atomically.
func (d *RunDir) WriteRunLevel(r *Run) error {
	return writeJSON(filepath.Join(d.path, RunFile), r)
}

// ReadSegments reads the segment-<i>.json files of a run folder, in
// segment order; unreadable ones are warned about and skipped.
func ReadSegments(dir string, warn Warner) []*Run {
	paths, _ := filepath.Glob(filepath.Join(globEscape(dir), SegmentGlob))
	var out []*Run
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err == nil && len(b) == 0 {
			continue // claimed, not written yet: the segment never started
		}
		var r Run
		if err == nil {
			err = json.Unmarshal(b, &r)
		}
		if err != nil {
			warn.warn(fmt.Errorf("%s: %w (skipped)", p, err))
			continue
		}
		out = append(out, &r)
	}
	slices.SortFunc(out, func(a, b *Run) int { return a.Segment - b.Segment })
	return out
}

// windowTolerance is how far a segment's start or end may be from the
// others' before it is warned about.
const windowTolerance = time.Second

// mergeSegments completes the run-level run.json of a split run (nil when
// segment 1 wrote none) from its segments' files: start and end the
// earliest and latest, executions, errors, unanswered calls, client CPU
// and work samples added up, interrupted if any was, the client hosts and
// exec paths of all, the busiest client machine (a verdict is as sound as
// its most saturated client), the dataset any of them read. It warns about segments
// missing or never finished, and about windows that differ from the
// others'.
func mergeSegments(dir string, run *Run, segs []*Run, warn Warner) *Run {
	if run == nil {
		warn.warn(fmt.Errorf("%s: no %s (segment 1 writes it): the run's figures come from its segments' files", dir, RunFile))
		r := *segs[0]
		r.Options = nil
		run = &r
	}
	n := run.Segments
	if n == 0 {
		n = segs[0].Segments
	}
	merged := *run
	merged.Segments, merged.Segment = n, 0
	merged.Start, merged.End = time.Time{}, time.Time{}
	merged.Executions, merged.Errors, merged.CutAtEnd, merged.Unanswered, merged.Interrupted = 0, 0, 0, 0, false
	merged.ExecPaths, merged.ClientCPUSeconds = nil, 0
	merged.Work, merged.Machine = nil, nil
	merged.WarningsCounted = len(segs) > 0
	var hosts []string
	have := map[int]bool{}
	for _, s := range segs {
		have[s.Segment] = true
		if !slices.Contains(hosts, s.ClientHost) {
			hosts = append(hosts, s.ClientHost)
		}
		if s.End.IsZero() {
			warn.warn(fmt.Errorf("%s: segment %d of %d (%s) did not finish: its %s has no end", dir, s.Segment, n, s.ClientHost, SegmentFile(s.Segment)))
		}
		if merged.Start.IsZero() || s.Start.Before(merged.Start) {
			merged.Start = s.Start
		}
		if s.End.After(merged.End) {
			merged.End = s.End
		}
		merged.Executions += s.Executions
		merged.Errors += s.Errors
		merged.CutAtEnd += s.CutAtEnd
		merged.Unanswered += s.Unanswered
		merged.ClientCPUSeconds += s.ClientCPUSeconds
		merged.Work = addWorkSampling(merged.Work, s.Work)
		merged.Machine = busierMachine(merged.Machine, s.Machine)
		if merged.Dataset == nil {
			merged.Dataset = s.Dataset
		}
		merged.Interrupted = merged.Interrupted || s.Interrupted
		merged.ExecPaths = append(merged.ExecPaths, s.ExecPaths...)
		merged.WarningsCounted = merged.WarningsCounted && s.WarningsCounted
	}
	merged.ClientHost = strings.Join(hosts, ",")
	if merged.ClientCPUPerQueryUs = 0; merged.Executions > 0 {
		merged.ClientCPUPerQueryUs = merged.ClientCPUSeconds * 1e6 / float64(merged.Executions)
	}
	var missing []string
	for i := 1; i <= n; i++ {
		if !have[i] {
			missing = append(missing, strconv.Itoa(i))
		}
	}
	if len(missing) > 0 {
		warn.warn(fmt.Errorf("%s: segment %s of %d missing: the run is incomplete", dir, strings.Join(missing, ", "), n))
	}
	for _, s := range segs {
		if s.End.IsZero() {
			continue
		}
		if d := s.Start.Sub(merged.Start); d > windowTolerance {
			warn.warn(fmt.Errorf("%s: segment %d started %s after the first: its window differs from the others'", dir, s.Segment, d.Round(time.Millisecond)))
		}
		if d := merged.End.Sub(s.End); d > windowTolerance {
			warn.warn(fmt.Errorf("%s: segment %d ended %s before the last: its window differs from the others'", dir, s.Segment, d.Round(time.Millisecond)))
		}
	}
	return &merged
}

// planFiles are the run's plans files: plans.parquet, or one per segment.
func planFiles(dir string) []string {
	var out []string
	p := filepath.Join(dir, PlansFile)
	if _, err := os.Stat(p); !errors.Is(err, fs.ErrNotExist) {
		out = append(out, p)
	}
	m, _ := filepath.Glob(filepath.Join(globEscape(dir), "plans-seg*.parquet"))
	slices.Sort(m)
	return append(out, m...)
}

// addWorkSampling adds the counts of a segment's work sampling to the sum
// of the others'; the options are the same in every segment.
func addWorkSampling(sum, seg *WorkSampling) *WorkSampling {
	if seg == nil {
		return sum
	}
	if sum == nil {
		c := *seg
		return &c
	}
	c := *sum
	c.Samples += seg.Samples
	c.Failed += seg.Failed
	c.Dropped += seg.Dropped
	return &c
}

// busierMachine is the one of two client machines' loads whose CPUs were
// under more pressure (by load per core where pressure is unknown).
func busierMachine(a, b *MachineLoad) *MachineLoad {
	if a == nil {
		return b
	}
	if b == nil {
		return a
	}
	if a.CPUPressure != nil && b.CPUPressure != nil {
		if *b.CPUPressure > *a.CPUPressure {
			return b
		}
		return a
	}
	if b.LoadAverage/float64(max(b.Cores, 1)) > a.LoadAverage/float64(max(a.Cores, 1)) {
		return b
	}
	return a
}
