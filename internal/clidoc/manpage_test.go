package clidoc

import (
	"io"
	"testing"

	"github.com/alecthomas/kong"
)

// manToyCLI exercises the parts of the page the Markdown test does not
// reach: text that roff would read as a request, backslashes, hyphens.
type manToyCLI struct {
	Verbose bool        `short:"v" help:"Say more."`
	Fetch   manToyCmd   `cmd:"" help:"Fetch things."`
	Store   manToyStore `cmd:"" help:"Store things."`
	Secret  manToyStore `cmd:"" hidden:"" help:"Not listed."`
}

type manToyConn struct {
	Host string `env:"TOY_HOST" group:"Connection" help:"Server host. More about it."`
}

type manToyCmd struct {
	manToyConn
	Target string `arg:"" help:"What to fetch."`
	Mode   string `enum:"fast,slow" default:"fast" help:"How: fast or slow."`
	Index  bool   `default:"true" negatable:"" help:"Use the index."`
	Debug  bool   `hidden:"" env:"TOY_DEBUG" help:"Not listed."`
}

func (manToyCmd) Help() string {
	return `Fetches things.

.dot at a line start, a back\slash, and --dashes.

Example:
  toy fetch x --mode slow`
}

type manToyStore struct {
	manToyConn
	Limit int `short:"n" default:"3" placeholder:"N" help:"At most N."`
}

func TestWriteManPage(t *testing.T) {
	parser, err := kong.New(&manToyCLI{}, kong.Name("toy"), kong.Description("toy does things\nwith a long first paragraph.\n\nAnd a second one."))
	if err != nil {
		t.Fatal(err)
	}
	page := Page{Section: 1, Manual: "User Commands", Sections: []Section{{Title: "Exit status", Text: "0 on success."}}}
	checkRendering(t, func(w io.Writer) error { return WriteManPage(w, parser.Model, page) }, []string{
		".TH TOY 1 \"\" toy \"User Commands\"\n.nh\n.ad l\n",
		".SH NAME\ntoy \\- does things\n",
		".SS \"toy fetch\"\n\\fBtoy fetch <target> [flags]\\fR\n",
		"\\&.dot at a line start, a back\\eslash, and \\-\\-dashes.",
		".RS 4\n.nf\ntoy fetch x \\-\\-mode slow\n.fi\n.RE\n",
		".TP\n\\fB\\-\\-mode\\fR=\\fI\"fast\"\\fR\nHow: fast or slow. One of: fast, slow. Default: fast.\n",
		".TP\n\\fB\\-\\-[no\\-]index\\fR\n",
		".TP\n\\fB\\-n\\fR, \\fB\\-\\-limit\\fR=\\fIN\\fR\nAt most N. Default: 3.\n",
		"Connection flags: see SHARED FLAGS.",
		".SS \"Connection flags\"\n.TP\n\\fB\\-\\-host\\fR=\\fISTRING\\fR\n",
		".SH ENVIRONMENT\n.TP\n\\fBTOY_HOST\\fR\nAs \\-\\-host. Server host.\n",
		".SH \"EXIT STATUS\"\n0 on success.\n",
	}, []string{"Not listed", "TOY_DEBUG", "toy secret"})
}
