package report

import (
	"fmt"
	"strings"
)

// A side that holds no execution at all compares nothing: it fails the
// comparison, whatever the options (compare.Options.AllowMissing accepts
// a scenario measured on one side only, not a side without any).

// NoExecutionsError is a side of a comparison without a single readable
// execution: its runs recorded nothing, or none of their files can be
// read. It always fails the comparison.
type NoExecutionsError struct {
	Side string   // results.SideBase or results.SideCandidate
	Dirs []string // the side's run folders
	// Failed holds what the side's run.json files say went wrong, if
	// anything.
	Failed []string
	// Cut says what its statements cut at the end ran, if any: the side
	// ran but completed nothing (cut.go).
	Cut string
}

func (e *NoExecutionsError) Error() string {
	msg := fmt.Sprintf("%s %s holds no readable executions: nothing to compare (the run recorded nothing, or its files cannot be read)",
		e.Side, strings.Join(e.Dirs, ", "))
	if len(e.Failed) > 0 {
		msg += "; " + strings.Join(e.Failed, "; ")
	}
	if e.Cut != "" {
		msg += "; it completed nothing: " + e.Cut
	}
	return msg
}
