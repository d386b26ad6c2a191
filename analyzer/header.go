package analyzer

import (
	"strings"

	"github.com/joinbench/joinbench/corpus"
)

// useName is the parameter name a placeholder use spells.
func UseName(src string, use corpus.Use) string {
	return strings.TrimSpace(src[use.Start+2 : use.End-2])
}
