package dirlist

import (
	"errors"
	"io/fs"
	"os"
	"strings"
)

// Names returns the names of the folders directly under root, sorted.
// Hidden folders (a leading '.') are left out: a store writes a thing into
// one and renames it into place once complete. A root that does not exist
// yet holds nothing.
func Names(root string) ([]string, error) {
	entries, err := os.ReadDir(root)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var names []string
	for _, e := range entries {
		if e.IsDir() && !strings.HasPrefix(e.Name(), ".") {
			names = append(names, e.Name())
		}
	}
	return names, nil
}
