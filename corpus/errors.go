package corpus

import (
	"errors"
	"fmt"

	"github.com/joinbench/joinbench/internal/sqllex"
	"github.com/joinbench/joinbench/internal/usage"
)

// Error is a mistake in a scenario or list file, with its position. Errors
// returned by ParseFile, Load and Compile wrap one (find it with
// errors.As) and are usage errors: the command line prints the one line and
// exits 2.
type Error struct {
	Path      string
	Line, Col int // 1-based; Col counts bytes
	Msg       string
}

func (e *Error) Error() string {
	return fmt.Sprintf("%s:%d:%d: %s", e.Path, e.Line, e.Col, e.Msg)
}

// errAt returns a usage error at a byte offset of src.
func errAt(path, src string, off int, format string, args ...any) error {
	line, col := sqllex.Position(src, off)
	return usage.Wrap(&Error{Path: path, Line: line, Col: col, Msg: fmt.Sprintf(format, args...)})
}

// errorf returns a usage error at a byte offset of the scenario's Source.
func (s *Scenario) errorf(off int, format string, args ...any) error {
	return errAt(s.Path, s.Source, off, format, args...)
}

// asError returns the *Error an error of the file carries, or one at the
// file's start holding its text.
func asError(path string, err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	return &Error{Path: path, Line: 1, Col: 1, Msg: err.Error()}
}
