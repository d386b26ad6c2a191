package action

import (
	"bufio"
	"os"
	"strings"
	"time"

	"github.com/joinbench/joinbench/internal/usage"
)

// ParseAll parses --action specs and the lines of --actions-file files
// (one spec per line; blank lines and lines starting with # are skipped),
// specs first. A mistake is a usage error naming the spec, and the file
// and line it is on.
func ParseAll(specs []string, files []string) ([]Spec, error) {
	var out []Spec
	for _, s := range specs {
		a, err := Parse(s)
		if err != nil {
			return nil, err
		}
		out = append(out, a)
	}
	for _, f := range files {
		got, err := parseFile(f)
		if err != nil {
			return nil, err
		}
		out = append(out, got...)
	}
	return out, nil
}

func parseFile(f string) ([]Spec, error) {
	fh, err := os.Open(f)
	if err != nil {
		return nil, usage.Errorf("--actions-file: %v", err)
	}
	defer fh.Close()
	var out []Spec
	sc := bufio.NewScanner(fh)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	line := 0
	for sc.Scan() {
		line++
		t := strings.TrimSpace(sc.Text())
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		a, err := Parse(t)
		if err != nil {
			return nil, usage.Errorf("%s:%d: %v", f, line, err)
		}
		out = append(out, a)
	}
	if err := sc.Err(); err != nil {
		return nil, usage.Errorf("--actions-file %s: %v", f, err)
	}
	return out, nil
}

// CheckOffsets checks the actions against the run's length: an offset at
// or past the end of a timed run (duration > 0) would never run.
func CheckOffsets(specs []Spec, duration time.Duration) error {
	for _, a := range specs {
		if duration > 0 && a.Offset >= duration {
			return usage.Errorf("--action %q: offset %s is past the end of the run (--time %s)", a.Text, a.Offset, duration)
		}
	}
	return nil
}
