package shellcomplete

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/alecthomas/kong"
)

type toyCLI struct {
	Verbose bool `short:"v" help:"Say more. And more."`
	Fetch   struct {
		Name   string   `arg:"" help:"What to fetch."`
		Mode   string   `enum:"fast,slow" default:"fast" help:"How."`
		Pick   []string `short:"p" help:"Pick one (repeatable)."`
		Cache  bool     `negatable:"" default:"true" help:"Use the cache."`
		Out    string   `type:"path" help:"Write here."`
		Into   string   `type:"existingdir" help:"Into this folder."`
		Limit  int      `short:"n" help:"At most this many."`
		Secret bool     `hidden:"" help:"Not offered."`
	} `cmd:"" help:"Fetch a thing."`
	Store struct {
		Files []string `arg:"" optional:"" type:"path" help:"Files to store."`
	} `cmd:"" help:"Store things."`
	Hidden struct{} `cmd:"" hidden:"" help:"Not offered."`
}

func completer(t *testing.T) *Completer {
	t.Helper()
	parser, err := kong.New(&toyCLI{}, kong.Name("toy"))
	if err != nil {
		t.Fatal(err)
	}
	things := func(line Line, prefix string) []Candidate {
		out := []Candidate{{"apple", "a fruit"}, {"apricot", ""}, {"banana", ""}}
		if len(line.Flags["mode"]) > 0 && line.Flags["mode"][0] == "slow" {
			out = append(out, Candidate{"avocado", "slow only"})
		}
		return out
	}
	return &Completer{App: parser.Model, Predict: func(node *kong.Node, v *kong.Value) Predictor {
		if node.Name == "fetch" && (v.Name == "name" || v.Name == "pick") {
			return things
		}
		return nil
	}}
}

func values(r Result) []string {
	var out []string
	for _, c := range r.Candidates {
		out = append(out, c.Value)
	}
	return out
}

func TestComplete(t *testing.T) {
	c := completer(t)
	for _, tc := range []struct {
		line      string // words separated by spaces; a trailing space starts an empty word
		want      []string
		directive Directive
	}{
		{"", []string{"fetch", "store"}, None},
		{"f", []string{"fetch"}, None},
		{"-", []string{"--help", "-h", "--verbose", "-v"}, None},
		{"--v", []string{"--verbose"}, None},
		{"fetch a", []string{"apple", "apricot"}, None},
		{"fetch apple ", nil, None},
		{"fetch --mode ", []string{"fast", "slow"}, None},
		{"fetch --mode=s", []string{"--mode=slow"}, None},
		{"fetch --mode = s", []string{"slow"}, None}, // bash splits at "="
		{"fetch --mode = ", []string{"fast", "slow"}, None},
		{"fetch --mode =", []string{"fast", "slow"}, None},
		{"fetch --mode slow a", []string{"apple", "apricot", "avocado"}, None},
		{"fetch -p a", []string{"apple", "apricot"}, None},
		{"fetch -vp a", []string{"apple", "apricot"}, None},
		{"fetch -n ", nil, None},
		{"fetch --ca", []string{"--cache"}, None},
		{"fetch --no", []string{"--no-cache"}, None},
		{"fetch --mode fast --mo", nil, None},         // given already
		{"fetch -p x --pi", []string{"--pick"}, None}, // repeatable
		{"fetch --se", nil, None},                     // hidden
		{"fetch --out ", nil, Files},
		{"fetch --into ", nil, Dirs},
		{"fetch --out=", nil, Files},
		{"fetch -- -", nil, None}, // after "--", an argument
		{"store ", nil, Files},
		{"store a b ", nil, Files},
		{"hid", nil, None},
		{"nosuch --x", nil, None},
	} {
		words := strings.Split(tc.line, " ")
		if tc.line == "" {
			words = []string{""}
		}
		r := c.Complete(words)
		if got := values(r); !slices.Equal(got, tc.want) || r.Directive != tc.directive {
			t.Errorf("%q: got %q %s, want %q %s", tc.line, got, r.Directive, tc.want, tc.directive)
		}
	}
}

func TestCompleteDescribes(t *testing.T) {
	r := completer(t).Complete([]string{"fetch", "--verb"})
	if len(r.Candidates) != 1 || r.Candidates[0].Description != "Say more." {
		t.Errorf("want the first sentence of the help, got %+v", r.Candidates)
	}
	var b bytes.Buffer
	if err := Write(&b, Result{Candidates: []Candidate{{"a", "one\ttwo\nthree"}, {"b", ""}}, Directive: Files}); err != nil {
		t.Fatal(err)
	}
	if want := "a\tone two three\nb\t\n:files\n"; b.String() != want {
		t.Errorf("Write: %q, want %q", b.String(), want)
	}
}

func TestScript(t *testing.T) {
	for _, shell := range Shells {
		s, err := Script(shell, "toy")
		if err != nil || !strings.Contains(s, "_toy") && !strings.Contains(s, "__toy_complete") || strings.Contains(s, "PROGRAM") || !strings.Contains(s, " __complete ") {
			t.Errorf("%s: %v\n%s", shell, err, s)
		}
	}
	if _, err := Script("csh", "toy"); err == nil {
		t.Error("csh: want an error")
	}
	if _, err := Script("bash", "toy; rm -rf /"); err == nil {
		t.Error("a program name that is not a plain name: want an error")
	}
}
