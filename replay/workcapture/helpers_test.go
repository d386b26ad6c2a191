package workcapture

import (
	"encoding/json"
	"testing"

	"github.com/joinbench/joinbench/results"
	"github.com/joinbench/joinbench/work"
)

// render shows a Work in a failure message.
func render(w *results.Work) string {
	b, _ := json.MarshalIndent(w, "", " ")
	return string(b)
}

func want(t *testing.T, what string, c *int64, v int64) {
	t.Helper()
	if got, ok := work.Value(c); !ok || got != v {
		t.Errorf("%s = %v (known %v), want %d", what, got, ok, v)
	}
}
