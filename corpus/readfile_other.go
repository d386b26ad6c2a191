//go:build !unix

package corpus

import "os"

// readFile reads the whole file at path into a string (buf is the
// scratch the unix version reuses; unused here).
func readFile(path string, buf []byte) (string, []byte, error) {
	b, err := os.ReadFile(path)
	return string(b), buf, err
}
