package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/alecthomas/kong"
)

// docs/cli.md must be what the command line says about itself, so that the
// reference cannot drift from --help.
func TestCLIReferenceIsUpToDate(t *testing.T) {
	code, generated := runCaptured(t, "help", "--markdown")
	if code != 0 || !strings.HasPrefix(generated, "# joinbench command reference\n") {
		t.Fatalf("help --markdown: exit %d\n%s", code, generated)
	}
	path := filepath.Join("..", "..", "docs", "cli.md")
	committed, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v: run `make docs` to generate it", err)
	}
	if string(committed) != generated {
		t.Fatalf("docs/cli.md is not what `joinbench help --markdown` prints: run `make docs` and commit the result (first difference at %s)",
			firstDifference(string(committed), generated))
	}
}

// firstDifference names the first line where two texts differ.
func firstDifference(have, want string) string {
	h, w := strings.Split(have, "\n"), strings.Split(want, "\n")
	for i := range max(len(h), len(w)) {
		var hl, wl string
		if i < len(h) {
			hl = h[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if hl != wl {
			return "line " + strconv.Itoa(i+1) + "\n  file:      " + hl + "\n  generated: " + wl
		}
	}
	return "the end"
}

func TestHelpCommand(t *testing.T) {
	code, out := runCaptured(t, "help", "sandbox", "start")
	if code != 0 || !strings.HasPrefix(out, "Usage: joinbench sandbox start [flags]\n") || !strings.Contains(out, "--buffer-pool-size") {
		t.Errorf("help sandbox start: exit %d\n%s", code, out)
	}
	code, out = runCaptured(t, "help")
	if code != 0 || !strings.Contains(out, "sandbox start") || strings.Contains(out, "  help ") {
		t.Errorf("help: exit %d, want the command list without the hidden help command\n%s", code, out)
	}
	code, out = runCaptured(t, "help", "compare", "--markdown")
	if code != 0 || !strings.HasPrefix(out, "## joinbench compare\n") || strings.Contains(out, "## joinbench run") {
		t.Errorf("help compare --markdown: exit %d, want only compare's section\n%s", code, out)
	}
	if code, _ := runCaptured(t, "help", "no-such-command"); code != 2 {
		t.Errorf("help no-such-command: exit %d, want 2", code)
	}
}

// toyCLI exercises every part of the rendering: groups shared alike, a group
// that differs between commands, enums, environment variables, negatable
// and hidden flags, positional arguments, subcommands and a detail text.
type toyCLI struct {
	Verbose bool    `short:"v" help:"Say more."`
	Fetch   toyCmd  `cmd:"" help:"Fetch things."`
	Store   toyCmd2 `cmd:"" help:"Store things."`
	Secret  toyCmd2 `cmd:"" hidden:"" help:"Not listed."`
	Nested  struct {
		Deep toyCmd2 `cmd:"" help:"A subcommand."`
	} `cmd:"" help:"A command with subcommands."`
}

type toyConn struct {
	Host string `env:"TOY_HOST,TOY_ADDR" group:"Connection" help:"Server <host> name."`
}

type toyCmd struct {
	toyConn
	Target string `arg:"" help:"What to fetch."`
	Mode   string `enum:"fast,slow" default:"fast" group:"Tuning" help:"How: *fast* or slow_"`
	Index  bool   `default:"true" negatable:"" group:"Tuning" help:"Use the index | or not."`
	Debug  bool   `hidden:"" help:"Not listed."`
}

func (toyCmd) Help() string {
	return `Fetches things.

Example:
  toy fetch x --mode slow`
}

type toyCmd2 struct {
	toyConn
	Limit int `short:"n" default:"3" placeholder:"N" group:"Tuning" help:"At most N."`
}

func TestReferenceRendering(t *testing.T) {
	var c toyCLI
	parser, err := kong.New(&c, kong.Name("toy"), kong.Description("Toy does things."))
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := writeReference(&b, parser.Model, parser.Model.Node); err != nil {
		t.Fatal(err)
	}
	got := b.String()
	for _, want := range []string{
		"# toy command reference\n",
		"- [`toy fetch`](#toy-fetch): Fetch things.\n",
		"- [`toy nested deep`](#toy-nested-deep): A subcommand.\n",
		"| `-v, --verbose` |  |  | Say more. |\n",
		"Usage: `toy fetch <target> [flags]`\n",
		"Fetches things.\n\nExample:\n\n```\ntoy fetch x --mode slow\n```\n",
		"| `<target>` | What to fetch. |\n",
		// Connection is alike in every command: listed once, linked.
		"**Connection**: see [Connection flags](#connection-flags).\n",
		"### Connection flags\n\n| Flag | Default | Environment | Description |\n|---|---|---|---|\n" +
			"| `--host=STRING` |  | `TOY_HOST`, `TOY_ADDR` | Server \\<host> name. |\n",
		// Tuning differs between fetch and store: listed with each.
		"| `--mode=\"fast\"` | `fast` |  | How: \\*fast\\* or slow\\_. One of: `fast`, `slow`. |\n",
		"| `--[no-]index` | `true` |  | Use the index \\| or not. |\n",
		"| `-n, --limit=N` | `3` |  | At most N. |\n",
		"### toy nested deep\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("reference lacks %q\n%s", want, got)
		}
	}
	for _, unwanted := range []string{"Not listed", "--debug", "### Tuning flags", "toy secret"} {
		if strings.Contains(got, unwanted) {
			t.Errorf("reference has %q\n%s", unwanted, got)
		}
	}
	if n := strings.Count(got, "`--host=STRING`"); n != 1 {
		t.Errorf("the shared --host row appears %d times, want 1", n)
	}
	var again strings.Builder
	_ = writeReference(&again, parser.Model, parser.Model.Node)
	if again.String() != got {
		t.Error("two renderings of one model differ")
	}
}
