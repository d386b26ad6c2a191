package testdb

import (
	"bufio"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// e2eTag is the build constraint of the end-to-end suite's files (alone,
// or with others such as linux).
var e2eTag = regexp.MustCompile(`^//go:build .*\be2e\b`)

// The two suites are split by file (README, Development): a test file is
// built only with the e2e tag exactly when its name ends in _e2e_test.go,
// so that a reader knows a test's suite from its file's name, and
// scripts/test.sh finds the end-to-end tests by the tag.
func TestSuitesSplitByFileName(t *testing.T) {
	root := filepath.Join("..", "..")
	tagged := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") && path != root || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		defer f.Close()
		sc := bufio.NewScanner(f)
		hasTag := sc.Scan() && e2eTag.MatchString(sc.Text())
		named := strings.HasSuffix(path, "_e2e_test.go")
		switch {
		case hasTag && !named:
			t.Errorf("%s is built with the e2e tag: name it *_e2e_test.go", path)
		case named && !hasTag:
			t.Errorf("%s is named as an end-to-end test file: begin it with //go:build e2e, or rename it", path)
		}
		if hasTag {
			tagged++
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if tagged == 0 {
		t.Error("no test file is built with the e2e tag: make test-e2e would run nothing")
	}
}
