package output

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/joinbench/joinbench/analyzer"
	"github.com/joinbench/joinbench/analyzer/rules"
)

// TestGitHubFormat: one workflow command per finding, the file relative
// to the repository root, the message's % and line breaks escaped, and
// the : and , of a property too.
func TestGitHubFormat(t *testing.T) {
	root := t.TempDir()
	diags := []analyzer.Diagnostic{
		{Path: filepath.Join(root, "a,b:c", "x.sql"), Line: 3, Col: 8, EndLine: 3, EndCol: 16, Severity: analyzer.Error, Rule: "unknown-column",
			Message: "100% wrong\r\nsecond line"},
		{Path: "/elsewhere/y.sql", Line: 1, Col: 1, Severity: analyzer.Info, Rule: "large-dml", Message: "no end known"},
	}
	var b bytes.Buffer
	if err := WriteFindings(&b, "github", diags, Options{Root: root}); err != nil {
		t.Fatal(err)
	}
	want := "::error file=a%2Cb%3Ac/x.sql,line=3,col=8,endLine=3,endColumn=16,title=unknown-column::100%25 wrong%0D%0Asecond line\n" +
		"::notice file=/elsewhere/y.sql,line=1,col=1,title=large-dml::no end known\n"
	if b.String() != want {
		t.Errorf("github format:\n%s\nwant:\n%s", b.String(), want)
	}
}

// TestSARIFPathsAndHelp: files under the root are relative to %SRCROOT%,
// which originalUriBaseIds places; others keep their file URI; each rule
// links to its own section of the rule reference.
func TestSARIFPathsAndHelp(t *testing.T) {
	root := t.TempDir()
	diags := []analyzer.Diagnostic{
		{Path: filepath.Join(root, "scen arios", "x.sql"), Line: 1, Col: 1, Severity: analyzer.Warning, Rule: rules.RightJoin.Name, Message: "m",
			Fixes: []analyzer.SuggestedFix{{Message: "f", Edits: []analyzer.TextEdit{{Start: 0, End: 1, NewText: "y"}}}}},
		{Path: "/elsewhere/y.sql", Line: 1, Col: 1, Severity: analyzer.Error, Rule: rules.Syntax.Name, Message: "m"},
	}
	var b bytes.Buffer
	if err := WriteSARIF(&b, diags, Options{Rules: rules.All(), Version: "test", Root: root}); err != nil {
		t.Fatal(err)
	}
	type artifact struct{ URI, URIBaseID string }
	var log struct {
		Runs []struct {
			OriginalURIBaseIDs map[string]struct{ URI string } `json:"originalUriBaseIds"`
			Tool               struct {
				Driver struct {
					Rules []struct {
						ID      string
						HelpURI string `json:"helpUri"`
					}
				}
			}
			Results []struct {
				Locations []struct {
					PhysicalLocation struct{ ArtifactLocation artifact }
				}
				Fixes []struct {
					ArtifactChanges []struct{ ArtifactLocation artifact }
				}
			}
		}
	}
	if err := json.Unmarshal(b.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	run := log.Runs[0]
	if got, want := run.OriginalURIBaseIDs["%SRCROOT%"].URI, "file://"+filepath.ToSlash(root)+"/"; got != want {
		t.Errorf("%%SRCROOT%% is %q, want %q", got, want)
	}
	for i, want := range []artifact{{"scen%20arios/x.sql", "%SRCROOT%"}, {"file:///elsewhere/y.sql", ""}} {
		if got := run.Results[i].Locations[0].PhysicalLocation.ArtifactLocation; got != want {
			t.Errorf("result %d names %+v, want %+v", i, got, want)
		}
	}
	if got := run.Results[0].Fixes[0].ArtifactChanges[0].ArtifactLocation; got.URIBaseID != "%SRCROOT%" {
		t.Errorf("fix names %+v", got)
	}
	for _, r := range run.Tool.Driver.Rules {
		if !strings.HasSuffix(r.HelpURI, "/docs/rules.md#"+r.ID) {
			t.Errorf("rule %s: helpUri %s", r.ID, r.HelpURI)
		}
	}
}

// TestRepoRoot: the nearest folder holding .git, a folder or the file of
// a linked work tree.
func TestRepoRoot(t *testing.T) {
	dir := t.TempDir()
	sub := filepath.Join(dir, "a", "b")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "a", ".git"), []byte("gitdir: elsewhere\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := RepoRoot(sub); got != filepath.Join(dir, "a") {
		t.Errorf("RepoRoot = %s, want %s", got, filepath.Join(dir, "a"))
	}
}
