// Package usage marks errors that are the user's to fix (a bad flag, a bad
// file, an unreachable server) so that the command line prints them as one
// line and exits with code 2, as opposed to failures during work (exit 1).
package usage

import (
	"errors"
	"fmt"
)

// Error is a user mistake. Its message is printed as is, on one line.
type Error struct{ err error }

func (e *Error) Error() string { return e.err.Error() }
func (e *Error) Unwrap() error { return e.err }

// Errorf formats a user error; %w wraps as with fmt.Errorf.
func Errorf(format string, args ...any) error {
	return &Error{err: fmt.Errorf(format, args...)}
}

// Wrap marks err as a user error; nil stays nil.
func Wrap(err error) error {
	if err == nil {
		return nil
	}
	return &Error{err: err}
}

// Is reports whether err, or anything it wraps, is a user error.
func Is(err error) bool {
	var u *Error
	return errors.As(err, &u)
}
