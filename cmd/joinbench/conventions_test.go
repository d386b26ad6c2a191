package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/alecthomas/kong"

	"github.com/joinbench/joinbench/corpus"
)

// These tests hold the command line to the conventions (conventions.go):
// each walks the kong model of every command, so that a flag added later
// is checked too.

// modelFlags calls visit with every command and the flags it takes, its
// own and its parents', hidden ones included.
func modelFlags(t *testing.T, visit func(cmd string, flags []*kong.Flag)) {
	t.Helper()
	parser, err := newParser(&cli{})
	if err != nil {
		t.Fatal(err)
	}
	var walk func(n *kong.Node, inherited []*kong.Flag)
	walk = func(n *kong.Node, inherited []*kong.Flag) {
		flags := append(slices.Clip(inherited), n.Flags...)
		if n.Type == kong.CommandNode && len(n.Children) == 0 {
			visit(n.FullPath(), flags)
		}
		for _, child := range n.Children {
			walk(child, flags)
		}
	}
	walk(parser.Model.Node, nil)
}

func flagNamed(flags []*kong.Flag, name string) *kong.Flag {
	for _, f := range flags {
		if f.Name == name {
			return f
		}
	}
	return nil
}

// A short flag stands for one long flag on every command, and a long flag
// that has a short one has it everywhere.
func TestConventionShortFlagsOneMeaning(t *testing.T) {
	longOf := map[rune]string{}
	modelFlags(t, func(cmd string, flags []*kong.Flag) {
		for _, f := range flags {
			if f.Short != 0 {
				if long, ok := longOf[f.Short]; ok && long != f.Name {
					t.Errorf("%s: -%c is --%s, elsewhere --%s", cmd, f.Short, f.Name, long)
				}
				longOf[f.Short] = f.Name
			}
		}
	})
	shortOf := map[string]rune{}
	for short, long := range longOf {
		shortOf[long] = short
		if !strings.Contains(conventions, fmt.Sprintf("-%c --%s", short, long)) {
			t.Errorf("the conventions do not list -%c --%s among the short flags", short, long)
		}
	}
	modelFlags(t, func(cmd string, flags []*kong.Flag) {
		for _, f := range flags {
			if short, ok := shortOf[f.Name]; ok && !f.Hidden && f.Short != short {
				t.Errorf("%s: --%s has no -%c, as elsewhere", cmd, f.Name, short)
			}
		}
	})
}

// --out is always a folder; -o/--output always a file.
func TestConventionOutIsFolderOutputIsFile(t *testing.T) {
	seen := 0
	modelFlags(t, func(cmd string, flags []*kong.Flag) {
		for _, f := range flags {
			switch {
			case f.Name == "out":
				seen++
				if f.PlaceHolder != "DIR" || f.Tag.Type != "path" {
					t.Errorf("%s: --out is %s (%s), want a folder: DIR", cmd, f.PlaceHolder, f.Tag.Type)
				}
			case f.Name == "output":
				seen++
				if f.PlaceHolder != "FILE" || f.Short != 'o' {
					t.Errorf("%s: --output is %s with -%c, want -o FILE", cmd, f.PlaceHolder, f.Short)
				}
			case f.PlaceHolder == "DIR" && !strings.HasSuffix(f.Name, "dir") && f.Name != "corpus" && f.Name != "dump-csv":
				t.Errorf("%s: --%s names a folder: call it --out, --corpus or --...-dir", cmd, f.Name)
			}
		}
	})
	if seen == 0 {
		t.Fatal("no --out or --output flag")
	}
	for _, page := range handWrittenPages(t) {
		b, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		for _, wrong := range []string{"--out FILE", "--out=FILE", "--output DIR", "--output=DIR"} {
			if strings.Contains(string(b), wrong) {
				t.Errorf("%s says %s: --out is a folder, -o/--output a file", filepath.Base(page), wrong)
			}
		}
	}
	if code, _, stderr := runCapturedAll(t, "report", "--out", filepath.Join(t.TempDir(), "r.txt"), t.TempDir()); code != 2 || !strings.Contains(stderr, `"--output"`) {
		t.Errorf("report --out FILE: exit %d, %q; want 2 and --output suggested", code, stderr)
	}
}

// Every command that prints in several formats takes -f/--format, text by
// default, with --json as a hidden alias of --format json.
func TestConventionFormat(t *testing.T) {
	want := []string{"list", "run", "report", "compare", "ab", "lint", "sandbox status", "sandbox list", "snapshot list"}
	modelFlags(t, func(cmd string, flags []*kong.Flag) {
		cmd = strings.TrimPrefix(cmd, "joinbench ")
		format, js := flagNamed(flags, "format"), flagNamed(flags, "json")
		if format == nil {
			if slices.Contains(want, cmd) {
				t.Errorf("%s has no --format", cmd)
			}
			if js != nil {
				t.Errorf("%s has --json but no --format", cmd)
			}
			return
		}
		if format.Short != 'f' || format.Default != "text" {
			t.Errorf("%s: --format has -%c, default %q; want -f, text", cmd, format.Short, format.Default)
		}
		hasJSON := slices.Contains(format.EnumSlice(), "json")
		if hasJSON != (js != nil) {
			t.Errorf("%s: --format json is %v, --json is %v: want both or neither", cmd, hasJSON, js != nil)
		}
		if js != nil && (!js.Hidden || js.Tag.Get("aliasof") != "format=json") {
			t.Errorf("%s: --json is not a hidden alias of --format json", cmd)
		}
	})
	code, viaFormat := runCaptured(t, "list", "-q", "--format", "json")
	if code != 0 || !strings.HasPrefix(viaFormat, "[") {
		t.Fatalf("list --format json: exit %d\n%s", code, viaFormat)
	}
	if code, viaJSON := runCaptured(t, "list", "-q", "--json"); code != 0 || viaJSON != viaFormat {
		t.Errorf("list --json: exit %d, not what --format json prints", code)
	}
	if code, _ := runCaptured(t, "list", "-q", "--json", "--format", "text"); code != 2 {
		t.Errorf("list --json --format text: exit %d, want 2", code)
	}
	for _, tc := range []struct {
		args   []string
		format func(c *cli) string
	}{
		{[]string{"run", "--json"}, func(c *cli) string { return c.Run.Format }},
		{[]string{"ab", "--base", "a", "--json"}, func(c *cli) string { return c.AB.Format }},
		{[]string{"sandbox", "status", "--json"}, func(c *cli) string { return c.Sandbox.Status.Format }},
	} {
		var c cli
		parser, err := newParser(&c)
		if err != nil {
			t.Fatal(err)
		}
		kctx, err := parser.Parse(tc.args)
		if err == nil {
			err = applyFlagAliases(kctx, os.Stderr)
		}
		if err != nil || tc.format(&c) != "json" {
			t.Errorf("%q: %v, format %q; want json", tc.args, err, tc.format(&c))
		}
	}
}

// Every hidden alias stands for a flag of its own command, and an old
// spelling keeps working with a note on stderr.
func TestConventionAliases(t *testing.T) {
	modelFlags(t, func(cmd string, flags []*kong.Flag) {
		for _, f := range flags {
			spec, _ := aliasSpec(f)
			if spec == "" {
				continue
			}
			name, _, _ := strings.Cut(spec, "=")
			if !f.Hidden || flagNamed(flags, name) == nil {
				t.Errorf("%s: --%s stands for --%s: want it hidden, and a flag of %s", cmd, f.Name, name, cmd)
			}
		}
	})
	for _, tc := range []struct{ old, now []string }{
		{[]string{"lint", "--explain", "right-join"}, []string{"lint", "--explain-rule", "right-join"}},
		{[]string{"show", "simple_inner_pk", "--thread", "3"}, []string{"show", "simple_inner_pk", "--thread-id", "3"}},
	} {
		code, want := runCaptured(t, tc.now...)
		if code != 0 {
			t.Fatalf("%q: exit %d", tc.now, code)
		}
		code, got, stderr := runCapturedAll(t, tc.old...)
		if code != 0 || got != want || !strings.Contains(stderr, "deprecated: use "+tc.now[len(tc.now)-2]) {
			t.Errorf("%q: exit %d, %q; want what %q prints and a note", tc.old, code, stderr, tc.now)
		}
	}
}

// --threads is the one spelling of a number of threads, always with -t; a
// short flag never means something else on a command without threads.
func TestConventionThreads(t *testing.T) {
	modelFlags(t, func(cmd string, flags []*kong.Flag) {
		for _, f := range flags {
			switch {
			case f.Hidden:
			case slices.Contains([]string{"thread", "workers", "concurrency", "jobs", "parallel", "connections"}, f.Name):
				t.Errorf("%s: --%s: a number of threads is --threads", cmd, f.Name)
			case f.Name == "threads" && f.Short != 't':
				t.Errorf("%s: --threads has no -t", cmd)
			}
		}
	})
	if code, out, stderr := runCapturedAll(t, "list", "-t", "4"); code != 2 || out != "" {
		t.Errorf("list -t 4: exit %d, %q, %q; want 2 (list has no threads)", code, out, stderr)
	}
}

// --tags means the same on run, ab and list: the scenarios list --tags
// shows are those run --tags runs.
func TestConventionTags(t *testing.T) {
	tagged := 0
	modelFlags(t, func(cmd string, flags []*kong.Flag) {
		f := flagNamed(flags, "tags")
		if f == nil {
			return
		}
		tagged++
		if f.Tag.Sep != ',' || f.PlaceHolder != "TAG" || !strings.Contains(f.Help, "one of these tags") || !strings.Contains(f.Help, "+") {
			t.Errorf("%s: --tags is %+v: want TAG,... chosen by any tag, + joining tags", cmd, f.Tag)
		}
	})
	if tagged != 3 {
		t.Errorf("%d commands take --tags, want 3 (run, ab, list)", tagged)
	}
	cp, err := corpus.LoadBuiltin()
	if err != nil {
		t.Fatal(err)
	}
	for _, tags := range []string{"inner,left,right,derived,semi_anti", "left,multilevel", "left+multilevel", "write+pk,derived"} {
		var c cli
		parser, err := newParser(&c)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := parser.Parse([]string{"run", "--tags", tags}); err != nil {
			t.Fatal(err)
		}
		counts, err := cp.Select(corpus.Selection{Tags: c.Run.Tags})
		if err != nil {
			t.Fatalf("run --tags %s: %v", tags, err)
		}
		code, out := runCaptured(t, "list", "-q", "--format", "json", "--tags", tags)
		var listed []listedScenario
		if err := json.Unmarshal([]byte(out), &listed); code != 0 || err != nil {
			t.Fatalf("list --tags %s: exit %d, %v", tags, code, err)
		}
		if len(listed) != len(counts) {
			t.Errorf("--tags %s: list shows %d scenarios, run runs %d", tags, len(listed), len(counts))
		}
		for _, s := range listed {
			if counts[s.Name] != 1 {
				t.Errorf("--tags %s: list shows %s, run does not run it", tags, s.Name)
			}
		}
	}
	if code, _, stderr := runCapturedAll(t, "list", "--tags", "innr"); code != 2 || !strings.Contains(stderr, "did you mean inner?") {
		t.Errorf("list --tags innr: exit %d, %q; want 2 and inner suggested", code, stderr)
	}
}

// Scenario names are suggested by edit distance, on every command that
// takes one.
func TestConventionSuggestions(t *testing.T) {
	t.Setenv("JOINBENCH_DSN", "")
	t.Setenv("JOINBENCH_SERVER_BINARY", "/nonexistent/mariadbd")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"show", "simpel_inner_pk"}, "did you mean simple_inner_pk?"},
		{[]string{"rewrite", "simple_left_pk_gb"}, "did you mean simple_left_pk_GB?"},
		{[]string{"run", "--out", t.TempDir(), "-s", "simple_left_pk_gb"}, "did you mean simple_left_pk_GB?"},
		{[]string{"run", "--out", t.TempDir(), "-s", "simpel_inner_pk=2"}, "did you mean simple_inner_pk?"},
	} {
		code, _, stderr := runCapturedAll(t, append(tc.args, "-q")...)
		if code != 2 || !strings.Contains(stderr, tc.want) || strings.Contains(stderr, "simple_inner_forcing_order") {
			t.Errorf("%q: exit %d, %q; want 2 and %q", tc.args, code, stderr, tc.want)
		}
	}
}
