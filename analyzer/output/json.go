package output

import (
	"encoding/json"
	"io"

	"github.com/joinbench/joinbench/analyzer"
)

// WriteJSON prints the findings as one JSON array.
func WriteJSON(w io.Writer, diags []analyzer.Diagnostic) error {
	if diags == nil {
		diags = []analyzer.Diagnostic{}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(diags)
}
