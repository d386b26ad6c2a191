package results

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"strings"
	"time"
)

// NewRunID returns a run id that sorts by start time: the UTC time to the
// second and 4 random hex digits, e.g. 20261130T120102Z-3fa9.
func NewRunID(now time.Time) string {
	var b [2]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails
	return now.UTC().Format("20060102T150405Z") + "-" + hex.EncodeToString(b[:])
}

// CheckRunID rejects ids that cannot be a single path element or that
// would break hive-style partition parsing.
func CheckRunID(id string) error {
	if id == "" {
		return fmt.Errorf("empty run id")
	}
	if strings.ContainsAny(id, "/\\=\x00") || id == "." || id == ".." {
		return fmt.Errorf("run id %q: must not contain '/', '\\' or '='", id)
	}
	return nil
}

// safeHost maps a client host name to a string usable in a file name.
func safeHost(h string) string {
	if h == "" {
		return "unknown"
	}
	b := []byte(h)
	for i, c := range b {
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '.', c == '_', c == '-':
		default:
			b[i] = '_'
		}
	}
	return string(b)
}
