package output

import (
	"encoding/json"
	"io"
	"net/url"
	"path/filepath"
	"strings"

	"github.com/joinbench/joinbench/analyzer"
)

// srcRoot is the uriBaseId of the files under the repository root, as
// code scanning services expect it.
const srcRoot = "%SRCROOT%"

// WriteSARIF prints the findings as a SARIF 2.1.0 log, the format code
// scanning services read. Files under o.Root are named relative to it,
// with uriBaseId %SRCROOT% (originalUriBaseIds says where that is), so
// that the log places them in the repository wherever it was checked out;
// other files by their absolute file URI. Each rule points at its own
// section of docs/rules.md.
func WriteSARIF(w io.Writer, diags []analyzer.Diagnostic, o Options) error {
	type msg struct {
		Text string `json:"text"`
	}
	type physLoc struct {
		ArtifactLocation sarifArtifact `json:"artifactLocation"`
		Region           sarifRegion   `json:"region"`
	}
	type location struct {
		PhysicalLocation physLoc `json:"physicalLocation"`
	}
	type replacement struct {
		DeletedRegion   map[string]int `json:"deletedRegion"`
		InsertedContent msg            `json:"insertedContent"`
	}
	type change struct {
		ArtifactLocation sarifArtifact `json:"artifactLocation"`
		Replacements     []replacement `json:"replacements"`
	}
	type fix struct {
		Description     msg      `json:"description"`
		ArtifactChanges []change `json:"artifactChanges"`
	}
	type result struct {
		RuleID    string     `json:"ruleId"`
		RuleIndex int        `json:"ruleIndex"`
		Level     string     `json:"level"`
		Message   msg        `json:"message"`
		Locations []location `json:"locations"`
		Fixes     []fix      `json:"fixes,omitempty"`
	}
	type help struct {
		Text     string `json:"text"`
		Markdown string `json:"markdown"`
	}
	type rule struct {
		ID               string            `json:"id"`
		ShortDescription msg               `json:"shortDescription"`
		FullDescription  msg               `json:"fullDescription"`
		Help             help              `json:"help"`
		HelpURI          string            `json:"helpUri"`
		DefaultConfig    map[string]string `json:"defaultConfiguration"`
	}
	var rules []rule
	index := map[string]int{}
	for i, a := range o.Rules {
		index[a.Name] = i
		var md strings.Builder
		_ = a.WriteExplanation(&md)
		rules = append(rules, rule{ID: a.Name, ShortDescription: msg{a.Doc}, FullDescription: msg{a.Explanation.Text},
			Help:    help{Text: a.Explanation.Text + "\nWrong:\n" + sarifIndent(a.Explanation.Wrong) + "\nRight:\n" + sarifIndent(a.Explanation.Right), Markdown: md.String()},
			HelpURI: a.HelpURI(), DefaultConfig: map[string]string{"level": sarifLevel(a.Severity)}})
	}
	results := []result{}
	for _, d := range diags {
		art := artifactOf(d.Path, o.Root)
		r := result{RuleID: d.Rule, RuleIndex: index[d.Rule], Level: sarifLevel(d.Severity), Message: msg{d.Message},
			Locations: []location{{physLoc{art, regionOf(d)}}}}
		for _, f := range d.Fixes {
			var reps []replacement
			for _, e := range f.Edits {
				reps = append(reps, replacement{DeletedRegion: map[string]int{"charOffset": e.Start, "charLength": e.End - e.Start}, InsertedContent: msg{e.NewText}})
			}
			r.Fixes = append(r.Fixes, fix{Description: msg{f.Message}, ArtifactChanges: []change{{art, reps}}})
		}
		results = append(results, r)
	}
	run := map[string]any{
		"tool": map[string]any{"driver": map[string]any{
			"name": "joinbench lint", "version": o.Version,
			"informationUri": "https://github.com/joinbench/joinbench", "rules": rules}},
		"results": results,
	}
	if o.Root != "" {
		run["originalUriBaseIds"] = map[string]any{srcRoot: map[string]string{"uri": fileURI(o.Root, true)}}
	}
	log := map[string]any{
		"$schema": "https://json.schemastore.org/sarif-2.1.0.json",
		"version": "2.1.0",
		"runs":    []any{run},
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(log)
}

// sarifArtifact names a file: relative to %SRCROOT% when it is under the
// root, else by its file URI (a relative path as it is: a built-in
// scenario's).
type sarifArtifact struct {
	URI       string `json:"uri"`
	URIBaseID string `json:"uriBaseId,omitempty"`
}

func artifactOf(path, root string) sarifArtifact {
	if rel, ok := relToRoot(path, root); ok {
		return sarifArtifact{URI: (&url.URL{Path: rel}).String(), URIBaseID: srcRoot}
	}
	if filepath.IsAbs(path) {
		return sarifArtifact{URI: fileURI(path, false)}
	}
	return sarifArtifact{URI: (&url.URL{Path: filepath.ToSlash(path)}).String()}
}

// fileURI is the file:// URI of an absolute path; a folder's ends in /,
// as a uriBaseId must.
func fileURI(path string, dir bool) string {
	p := filepath.ToSlash(path)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p // C:/x on Windows
	}
	if dir && !strings.HasSuffix(p, "/") {
		p += "/"
	}
	return (&url.URL{Scheme: "file", Path: p}).String()
}

// sarifRegion is where a finding starts and ends in its file.
type sarifRegion struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn"`
	EndLine     int `json:"endLine,omitempty"`
	EndColumn   int `json:"endColumn,omitempty"` // exclusive, as SARIF counts
}

// regionOf is a finding's region; one with no end known (built by hand)
// gets a start only.
func regionOf(d analyzer.Diagnostic) (r sarifRegion) {
	r.StartLine, r.StartColumn = d.Line, d.Col
	if d.EndLine > d.Line || d.EndLine == d.Line && d.EndCol > d.Col {
		r.EndLine, r.EndColumn = d.EndLine, d.EndCol
	}
	return r
}

func sarifLevel(s analyzer.Severity) string {
	switch s {
	case analyzer.Error:
		return "error"
	case analyzer.Warning:
		return "warning"
	case analyzer.Info:
		return "note"
	}
	return "none"
}

// sarifIndent indents an example as the explanation's text shows it.
func sarifIndent(s string) string {
	return "    " + strings.ReplaceAll(s, "\n", "\n    ")
}
