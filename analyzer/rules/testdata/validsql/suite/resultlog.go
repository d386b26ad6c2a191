package suite

import (
	"os"
	"strings"
)

// resultLog is a test's .result file, the server's answers as the suite
// recorded them: each statement echoed (unless the query log was off),
// then its result, its warnings or the line "ERROR <state>: <message>".
type resultLog struct {
	lines []string         // non-empty lines, trimmed
	first map[string][]int // line -> the indexes where it occurs
}

func readResultLog(path string) (*resultLog, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	l := &resultLog{first: map[string][]int{}}
	for _, s := range strings.Split(string(b), "\n") {
		if s = strings.TrimSpace(s); s != "" {
			l.first[s] = append(l.first[s], len(l.lines))
			l.lines = append(l.lines, s)
		}
	}
	return l, nil
}

// accepted reports whether the log echoes the statement at least once and
// never with an error after it. A statement the log does not show (the
// query log was off, a replace_result changed its echo, its branch did not
// run) is left out: nothing says the server accepted it.
func (l *resultLog) accepted(echo string) bool {
	want := echoLines(echo)
	if len(want) == 0 {
		return false
	}
	seen := false
	for _, at := range l.first[want[0]] {
		if at+len(want) > len(l.lines) {
			continue
		}
		match := true
		for k := 1; k < len(want); k++ {
			if l.lines[at+k] != want[k] {
				match = false
				break
			}
		}
		if !match {
			continue
		}
		next := at + len(want)
		if next < len(l.lines) && strings.HasPrefix(l.lines[next], "ERROR ") {
			return false
		}
		seen = true
	}
	return seen
}

// echoLines is the statement as the log shows it: trimmed non-empty lines.
func echoLines(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return out
}
