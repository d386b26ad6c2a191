package output

import (
	"fmt"
	"io"

	"github.com/joinbench/joinbench/analyzer"
)

// WriteText prints one line per finding: path:line:col: severity: message [rule].
func WriteText(w io.Writer, diags []analyzer.Diagnostic) error {
	for _, d := range diags {
		if _, err := fmt.Fprintln(w, d.String()); err != nil {
			return err
		}
	}
	return nil
}
