package segment

import (
	"fmt"
	"os"
	"strconv"
	"strings"
)

// Segment is part Index of Count of a whole, numbered from 1: --segment
// 2/4 is the second of four. The zero value (Count 0) is the whole, not
// split, as is 1/1.
type Segment struct {
	Index, Count int
}

// Environment variables a segment defaults from: a Kubernetes Indexed Job
// sets JOB_COMPLETION_INDEX (from 0) in every pod; the number of segments
// is passed in CountEnv (the Job's completions).
const (
	IndexEnv = "JOB_COMPLETION_INDEX"
	CountEnv = "JOINBENCH_SEGMENTS"
)

// MaxCount bounds the number of segments.
const MaxCount = 10000

// Parse reads "I/N" (1 <= I <= N). "" is the whole.
func Parse(s string) (Segment, error) {
	if s == "" {
		return Segment{}, nil
	}
	i, n, ok := strings.Cut(s, "/")
	if !ok {
		return Segment{}, fmt.Errorf("--segment %q: want I/N, e.g. 2/4 for the second of four (numbered from 1)", s)
	}
	idx, err1 := strconv.Atoi(strings.TrimSpace(i))
	cnt, err2 := strconv.Atoi(strings.TrimSpace(n))
	if err1 != nil || err2 != nil {
		return Segment{}, fmt.Errorf("--segment %q: want I/N with whole numbers, e.g. 2/4", s)
	}
	return New(idx, cnt)
}

// New checks index and count.
func New(index, count int) (Segment, error) {
	if count < 1 || count > MaxCount {
		return Segment{}, fmt.Errorf("--segment: the number of segments must be between 1 and %d, got %d", MaxCount, count)
	}
	if index < 1 || index > count {
		return Segment{}, fmt.Errorf("--segment: the segment must be between 1 and %d (numbered from 1), got %d", count, index)
	}
	return Segment{Index: index, Count: count}, nil
}

// Resolve returns the segment given by flag ("I/N" or ""), else the one of
// the environment: JOB_COMPLETION_INDEX (from 0, so index 0 is segment 1)
// with JOINBENCH_SEGMENTS. JOB_COMPLETION_INDEX alone is ignored: every
// pod of an Indexed Job has it, also when the Job is not meant to split
// the work. getenv is os.Getenv when nil.
func Resolve(flag string, getenv func(string) string) (Segment, error) {
	if flag != "" {
		return Parse(flag)
	}
	if getenv == nil {
		getenv = os.Getenv
	}
	count := strings.TrimSpace(getenv(CountEnv))
	if count == "" {
		return Segment{}, nil
	}
	n, err := strconv.Atoi(count)
	if err != nil {
		return Segment{}, fmt.Errorf("%s=%q: want a whole number", CountEnv, count)
	}
	idx := strings.TrimSpace(getenv(IndexEnv))
	if idx == "" {
		return Segment{}, fmt.Errorf("%s=%d but %s is not set: give --segment I/N", CountEnv, n, IndexEnv)
	}
	i, err := strconv.Atoi(idx)
	if err != nil {
		return Segment{}, fmt.Errorf("%s=%q: want a whole number", IndexEnv, idx)
	}
	return New(i+1, n)
}

// Split reports whether the whole is split in more than one segment.
func (s Segment) Split() bool { return s.Count > 1 }

// String is "I/N", or "" for the whole.
func (s Segment) String() string {
	if s.Count == 0 {
		return ""
	}
	return strconv.Itoa(s.Index) + "/" + strconv.Itoa(s.Count)
}

// Share is this segment's part of total things (threads, events): total/N
// each, the first total%N segments one more, so that the shares add up to
// total exactly. The whole gets total.
func (s Segment) Share(total int64) int64 {
	if s.Count <= 1 {
		return total
	}
	n, k := int64(s.Count), int64(s.Index-1)
	share := total / n
	if k < total%n {
		share++
	}
	return share
}

// Range is this segment's part of the ids first..last: consecutive ranges
// in segment order, sized as Share. An empty range has from > to.
func (s Segment) Range(first, last int64) (from, to int64) {
	if s.Count <= 1 {
		return first, last
	}
	total := last - first + 1
	if total < 0 {
		total = 0
	}
	from = first
	for k := 1; k < s.Index; k++ {
		from += Segment{Index: k, Count: s.Count}.Share(total)
	}
	return from, from + s.Share(total) - 1
}

// Seed derives the seed of this segment's random streams from the run's:
// each segment draws its own values, and the same seed and segment draw
// the same ones again. The whole keeps seed.
func (s Segment) Seed(seed uint64) uint64 {
	if s.Count <= 1 {
		return seed
	}
	// splitmix64 of the seed and the segment: well mixed, so that
	// neighbouring segments' streams are unrelated.
	z := seed + uint64(s.Index)*0x9e3779b97f4a7c15 + uint64(s.Count)<<32
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}
