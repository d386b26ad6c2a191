package output

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/joinbench/joinbench/analyzer"
)

// Formats are the output formats of findings: text for people, json for
// scripts, sarif for code scanning services, github for the annotations
// of a GitHub Actions workflow.
var Formats = []string{"text", "json", "sarif", "github"}

// Options say what the formats read by CI systems need besides the
// findings.
type Options struct {
	// Version is the tool's version, for SARIF.
	Version string
	// Root is the repository root: SARIF and github name files relative
	// to it, as code scanning and workflow annotations place them. ""
	// keeps the paths as they are.
	Root string
	// Rules are the rules SARIF describes (rules.All).
	Rules []*analyzer.Analyzer
}

// WriteFindings writes findings in one of Formats.
func WriteFindings(w io.Writer, format string, diags []analyzer.Diagnostic, o Options) error {
	switch format {
	case "text":
		return WriteText(w, diags)
	case "json":
		return WriteJSON(w, diags)
	case "sarif":
		return WriteSARIF(w, diags, o)
	case "github":
		return WriteGitHub(w, diags, o)
	}
	return fmt.Errorf("unknown output format %q (want %s)", format, strings.Join(Formats, ", "))
}

// RepoRoot is the root of the git work tree holding dir (the nearest
// folder, dir or above, with a .git entry), else dir itself: what CI
// systems take file paths relative to.
func RepoRoot(dir string) string {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return dir
	}
	for d := abs; ; {
		if _, err := os.Stat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		parent := filepath.Dir(d)
		if parent == d {
			return abs
		}
		d = parent
	}
}

// relToRoot returns path relative to root, in slash form, and whether it
// is under root; a path outside it, or any path when root is "", comes
// back as it was.
func relToRoot(path, root string) (string, bool) {
	if root == "" || !filepath.IsAbs(path) {
		return filepath.ToSlash(path), false
	}
	rel, err := filepath.Rel(root, path)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return filepath.ToSlash(path), false
	}
	return filepath.ToSlash(rel), true
}
