package output

import (
	"fmt"
	"io"
	"strings"

	"github.com/joinbench/joinbench/analyzer"
)

// WriteGitHub prints one GitHub Actions workflow command per finding,
// which the workflow shows as an annotation on the file's line:
//
//	::error file=scenarios/x.sql,line=3,col=8,endLine=3,endColumn=16,title=unknown-column::unknown column m.nosuch
//
// Files are named relative to o.Root, as annotations need. Severities map
// to error, warning and notice; the end column is exclusive, as in the
// other formats.
func WriteGitHub(w io.Writer, diags []analyzer.Diagnostic, o Options) error {
	for _, d := range diags {
		path, _ := relToRoot(d.Path, o.Root)
		props := []string{"file=" + escapeGitHubProperty(path), fmt.Sprintf("line=%d", d.Line), fmt.Sprintf("col=%d", d.Col)}
		if r := regionOf(d); r.EndLine > 0 {
			props = append(props, fmt.Sprintf("endLine=%d", r.EndLine), fmt.Sprintf("endColumn=%d", r.EndColumn))
		}
		props = append(props, "title="+escapeGitHubProperty(d.Rule))
		if _, err := fmt.Fprintf(w, "::%s %s::%s\n", githubLevel(d.Severity), strings.Join(props, ","), escapeGitHubData(d.Message)); err != nil {
			return err
		}
	}
	return nil
}

func githubLevel(s analyzer.Severity) string {
	switch s {
	case analyzer.Error:
		return "error"
	case analyzer.Warning:
		return "warning"
	}
	return "notice"
}

var (
	githubData     = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A")
	githubProperty = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C")
)

// escapeGitHubData escapes a workflow command's message: %, CR and LF.
func escapeGitHubData(s string) string { return githubData.Replace(s) }

// escapeGitHubProperty escapes a property's value: the message's
// characters, and the : and , that separate properties.
func escapeGitHubProperty(s string) string { return githubProperty.Replace(s) }
