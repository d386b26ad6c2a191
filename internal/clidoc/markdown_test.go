package clidoc

import (
	"io"
	"strings"
	"testing"

	"github.com/alecthomas/kong"
)

// toyCLI exercises every part of the rendering: groups shared alike, a group
// that differs between commands, enums, environment variables, negatable
// and hidden flags, positional arguments, subcommands and a detail text.
type toyCLI struct {
	Verbose bool     `short:"v" help:"Say more."`
	Fetch   toyCmd   `cmd:"" help:"Fetch things."`
	Store   toyStore `cmd:"" help:"Store things."`
	Secret  toyStore `cmd:"" hidden:"" help:"Not listed."`
	Nested  struct {
		Deep toyStore `cmd:"" help:"A subcommand."`
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

type toyStore struct {
	toyConn
	Limit int `short:"n" default:"3" placeholder:"N" group:"Tuning" help:"At most N."`
}

func TestReferenceRendering(t *testing.T) {
	var c toyCLI
	parser, err := kong.New(&c, kong.Name("toy"), kong.Description("Toy does things."))
	if err != nil {
		t.Fatal(err)
	}
	got := checkRendering(t, func(w io.Writer) error { return WriteMarkdown(w, parser.Model, parser.Model.Node) }, []string{
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
	}, []string{"Not listed", "--debug", "### Tuning flags", "toy secret"})
	if n := strings.Count(got, "`--host=STRING`"); n != 1 {
		t.Errorf("the shared --host row appears %d times, want 1", n)
	}
}
