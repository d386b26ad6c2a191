package analyzer

import (
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"
)

// WriteText prints one line per finding: path:line:col: severity: message [rule].
func WriteText(w io.Writer, diags []Diagnostic) error {
	for _, d := range diags {
		if _, err := fmt.Fprintln(w, d.String()); err != nil {
			return err
		}
	}
	return nil
}

// WriteJSON prints the findings as one JSON array.
func WriteJSON(w io.Writer, diags []Diagnostic) error {
	if diags == nil {
		diags = []Diagnostic{}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(diags)
}

// WriteSARIF prints the findings as a SARIF 2.1.0 log, the format code
// scanning services read.
func WriteSARIF(w io.Writer, diags []Diagnostic, version string) error {
	type msg struct {
		Text string `json:"text"`
	}
	type artifact struct {
		URI string `json:"uri"`
	}
	type physLoc struct {
		ArtifactLocation artifact    `json:"artifactLocation"`
		Region           sarifRegion `json:"region"`
	}
	type location struct {
		PhysicalLocation physLoc `json:"physicalLocation"`
	}
	type replacement struct {
		DeletedRegion   map[string]int `json:"deletedRegion"`
		InsertedContent msg            `json:"insertedContent"`
	}
	type change struct {
		ArtifactLocation artifact      `json:"artifactLocation"`
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
	for i, a := range Analyzers() {
		index[a.Name] = i
		var md strings.Builder
		_ = a.WriteExplanation(&md)
		rules = append(rules, rule{ID: a.Name, ShortDescription: msg{a.Doc}, FullDescription: msg{a.Explanation.Text},
			Help:    help{Text: a.Explanation.Text + "\nWrong:\n" + indent(a.Explanation.Wrong) + "\nRight:\n" + indent(a.Explanation.Right), Markdown: md.String()},
			HelpURI: a.HelpURI(), DefaultConfig: map[string]string{"level": sarifLevel(a.Severity)}})
	}
	results := []result{}
	for _, d := range diags {
		uri := filepath.ToSlash(d.Path)
		r := result{RuleID: d.Rule, RuleIndex: index[d.Rule], Level: sarifLevel(d.Severity), Message: msg{d.Message},
			Locations: []location{{physLoc{artifact{uri}, regionOf(d)}}}}
		for _, f := range d.Fixes {
			var reps []replacement
			for _, e := range f.Edits {
				reps = append(reps, replacement{DeletedRegion: map[string]int{"charOffset": e.Start, "charLength": e.End - e.Start}, InsertedContent: msg{e.NewText}})
			}
			r.Fixes = append(r.Fixes, fix{Description: msg{f.Message}, ArtifactChanges: []change{{artifact{uri}, reps}}})
		}
		results = append(results, r)
	}
	log := map[string]any{
		"$schema": "https://json.schemastore.org/sarif-2.1.0.json",
		"version": "2.1.0",
		"runs": []any{map[string]any{
			"tool": map[string]any{"driver": map[string]any{
				"name": "joinbench lint", "version": version,
				"informationUri": "https://github.com/joinbench/joinbench", "rules": rules}},
			"results": results,
		}},
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(log)
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
func regionOf(d Diagnostic) (r sarifRegion) {
	r.StartLine, r.StartColumn = d.Line, d.Col
	if d.EndLine > d.Line || d.EndLine == d.Line && d.EndCol > d.Col {
		r.EndLine, r.EndColumn = d.EndLine, d.EndCol
	}
	return r
}

func sarifLevel(s Severity) string {
	switch s {
	case Error:
		return "error"
	case Warning:
		return "warning"
	case Info:
		return "note"
	}
	return "none"
}
