package main

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/alecthomas/kong"
	"github.com/go-sql-driver/mysql"

	"github.com/joinbench/joinbench/internal/usage"
	"github.com/joinbench/joinbench/replay/results"
)

// Defaults when --rounds, --time and --warmup are not given. Rounds that
// are runs of their own pay a warm-up each and measure the machine's
// drift between them, so they are few and long; the slices of runs in
// lockstep cost nothing to cut and vary little, so they are many (more
// degrees of freedom for the same time).
const (
	abRounds    = 6
	abRoundTime = 20 * time.Second
	abSlices    = 12
	abSliceTime = 10 * time.Second
	abWarmup    = 2 * time.Second
)

// abCmd runs the same workload interleaved on a base and a
// candidate server, then compares them round by round.
type abCmd struct {
	// The workload of every round: run's flags. The connection flags that
	// name a server do not apply (--base and --candidate do); the others
	// (user, password, TLS, sandbox folder) apply to both servers.
	runCmd `embed:""`

	Base       []string `required:"" sep:"none" group:"A/B" placeholder:"SERVER" help:"Base server: a named sandbox, HOST:PORT, a socket path or a DSN (repeat DSNs for several endpoints)."`
	Candidate  []string `sep:"none" group:"A/B" placeholder:"SERVER" help:"Candidate server, as --base (default: the base, with --calibrate)."`
	Rounds     int      `group:"A/B" help:"Rounds per side (default 12 slices with --interleave statements, 6 rounds with rounds)."`
	Interleave string   `default:"statements" enum:"statements,rounds" group:"A/B" help:"statements: one run on each server at once, the two taking turns statement by statement, each --time slice a round; rounds: each round a run of its own on one server, alternating base, candidate, candidate, base, ..."`

	verdictFlags `embed:"" group:"Verdicts"`
	Format       string `short:"f" enum:"text,markdown,json" default:"text" group:"Verdicts" help:"Output format of the comparison: text, markdown or json."`
	Output       string `short:"o" type:"path" placeholder:"FILE" group:"Verdicts" help:"Write the comparison to FILE instead of standard output."`

	// noWarmup is set once a round recorded nothing because its warm-up
	// events outlasted the round: the engine starts recorded events only
	// before the round's end, so with events that long a warm-up would
	// leave every round empty. The later rounds of both sides then run
	// without warm-up, alike.
	noWarmup bool `kong:"-"`
}

func (a *abCmd) Help() string {
	return `Answers "is the candidate server slower than the base?" in one command,
with verdicts that hold on a noisy machine. The workload (run's flags:
--tags, --threads, --tables, ...) runs on both servers, interleaved so that
whatever slows the machine down hits both sides alike, and its rounds are
compared pairwise.

--interleave statements (the default): one run on each server at once,
after a common --warmup (default 2s, not recorded), the two taking turns
statement by statement: thread i of the base and thread i of the
candidate run each statement (the same values) one right after the other,
which side first drawn at random, so only one of the two is ever running
it. Each server is measured within milliseconds of the other; on a shared
machine, whose speed wanders by 15-30% over seconds, that cancels what
rounds of seconds cannot. The measured phase, --rounds slices (default 12)
of --time (default 10s), is one run per side:

  DIR/ab=<id>/side=base/run=<id>-base/ ...
  DIR/ab=<id>/side=candidate/run=<id>-candidate/ ...

each slice a round (run.json: "replicate" with its "slice"). Each server
sees at most --threads statements at once, and about half of them: for a
regression that needs the full concurrency (lock contention), use rounds.
--events and --rate do not apply.

--interleave rounds: --rounds rounds (default 6) per side, each a run of
its own, ordered base, candidate, candidate, base, base, candidate, ...;
each lasts --time (default 20s) after --warmup (default 2s, not recorded:
connections, prepared statements and caches settle after each switch):

  DIR/ab=<id>/side=base/run=<id>-base-01/ ...
  DIR/ab=<id>/side=candidate/run=<id>-candidate-01/ ...

with its side and round in run.json ("replicate").

Either way the rounds are then compared as 'joinbench compare
DIR/ab=<id>/side=base DIR/ab=<id>/side=candidate' would: per scenario, a
t interval over the log ratios of paired rounds (see compare --help), so
verdicts include the variation between rounds, not only between
executions.

Both servers must hold the same data (joinbench prepare with the same
--tables, --table-size and --seed on each). SERVER is a sandbox name
(joinbench sandbox start --name NAME), HOST:PORT, a socket path, or a Go
MySQL DSN; user, password and TLS flags apply to both.

Calibration: on a setup where nothing changes (--candidate omitted, so
both sides run on the base; or two alike servers),
--calibrate noise.json measures each scenario's noise between rounds.
Later comparisons with --noise-file noise.json use it as a floor on the
spread of rounds, and call a scenario whose noise exceeds --threshold
with the rounds at hand "too noisy to judge" instead of giving a verdict.

Exit status: 1 when a scenario is a regression or gives wrong results,
or is measured on one side only (unless --allow-missing; none of these
with --calibrate), and when a side recorded no execution at all; 0
otherwise; 2 on a usage error.

Examples:
  joinbench ab --base m1011 --candidate m114 --tags inner,left,right,derived,semi_anti \
      --threads 2 --format markdown -o comment.md
  joinbench ab --base m1011 --calibrate noise.json --rounds 20
  joinbench ab --base 127.0.0.1:3306 --candidate 127.0.0.1:3307 --noise-file noise.json
  joinbench ab --base m1011 --candidate m114 --all --threads 16 --interleave rounds --rounds 10`
}

// abSide is one server of the comparison.
type abSide struct {
	name   string // results.SideBase or results.SideCandidate
	server abServer
	dirs   []string
}

func (a *abCmd) Run(ctx context.Context, cl *cli, kctx *kong.Context) error {
	if err := a.check(kctx); err != nil {
		return err
	}
	base, err := parseServer("--base", a.Base)
	if err != nil {
		return err
	}
	cand := base
	if len(a.Candidate) > 0 {
		if cand, err = parseServer("--candidate", a.Candidate); err != nil {
			return err
		}
	} else if a.Calibrate == "" {
		return usage.Errorf("--candidate is missing (only --calibrate runs every round on the base)")
	}
	opt, err := a.verdictFlags.options(cl)
	if err != nil {
		return err
	}

	series := a.RunID
	if series == "" {
		series = results.NewRunID(time.Now())
	}
	root := filepath.Join(a.Out, "ab="+series)
	sides := [2]*abSide{{name: results.SideBase, server: base}, {name: results.SideCandidate, server: cand}}
	logw := logWriter(cl)
	run := a.runRounds
	if a.Interleave == interleaveStatements {
		run = a.runLockstep
	}
	if err := run(ctx, cl, sides, series, root); err != nil {
		return err
	}
	fmt.Fprintf(logw, "ab: compare again with: joinbench compare %s %s\n",
		filepath.Join(root, "side="+results.SideBase), filepath.Join(root, "side="+results.SideCandidate))
	return a.compareOrCalibrate(cl, sides[0].dirs, sides[1].dirs, opt, a.Format, a.Output)
}

// runRounds runs --rounds rounds on each side, each a run of its own,
// ordered base, candidate, candidate, base, ..., and records the run
// folders in sides.
func (a *abCmd) runRounds(ctx context.Context, cl *cli, sides [2]*abSide, series, root string) error {
	logw := logWriter(cl)
	per := a.Time + a.Warmup
	fmt.Fprintf(logw, "ab %s: rounds of %s (+%s warm-up), %d per side: base %s, candidate %s, at least %s; results in %s\n",
		series, a.Time, a.Warmup, a.Rounds, sides[0].server.label, sides[1].server.label, (time.Duration(2*a.Rounds) * per).Round(time.Second), root)
	order := 0
	for k := 1; k <= a.Rounds; k++ {
		pair := []*abSide{sides[0], sides[1]}
		if k%2 == 0 {
			pair[0], pair[1] = pair[1], pair[0]
		}
		for _, s := range pair {
			order++
			dir, err := a.round(ctx, cl, s, series, root, k)
			if err != nil {
				return fmt.Errorf("round %d of %s (%s): %w", k, s.name, s.server.label, err)
			}
			if err := results.SetReplicate(dir, results.Replicate{Series: series, Side: s.name, Round: k, Order: order, Rounds: a.Rounds}); err != nil {
				return err
			}
			s.dirs = append(s.dirs, dir)
			line := fmt.Sprintf("ab: round %d/%d %-9s", k, a.Rounds, s.name)
			if info := results.ReadRunInfo(dir, nil); info != nil {
				line += fmt.Sprintf(" %s, %d executions, %d errors", info.End.Sub(info.Start).Round(100*time.Millisecond), info.Executions, info.Errors)
			}
			fmt.Fprintln(logw, line)
		}
	}
	return nil
}

// check validates the flags and fills in the round defaults.
func (a *abCmd) check(kctx *kong.Context) error {
	if err := a.verdictFlags.check(); err != nil {
		return err
	}
	// Flags given on the command line (kong marks defaulted flags set
	// too). Each round replaces whatever server the environment names.
	given := map[string]bool{}
	for _, p := range kctx.Path {
		if p.Flag != nil {
			given[p.Flag.Name] = true
		}
	}
	lockstep := a.Interleave == interleaveStatements
	if !given["rounds"] {
		a.Rounds = abRounds
		if lockstep {
			a.Rounds = abSlices
		}
	}
	if a.Rounds < 1 {
		return usage.Errorf("--rounds must be at least 1, got %d", a.Rounds)
	}
	if a.Calibrate != "" && a.Rounds < 2 {
		return usage.Errorf("--calibrate needs at least 2 rounds per side, got --rounds %d", a.Rounds)
	}
	for _, name := range []string{"dsn", "host", "port", "socket", "sandbox"} {
		if given[name] {
			return usage.Errorf("--%s does not apply to ab: name the servers with --base and --candidate", name)
		}
	}
	if a.JSON {
		return usage.Errorf("--json does not apply to ab: use --format json")
	}
	if lockstep {
		if err := a.checkLockstep(given); err != nil {
			return err
		}
	}
	if a.Time == 0 && a.Events == 0 {
		a.Time = abRoundTime
		if lockstep {
			a.Time = abSliceTime
		}
	}
	if !given["warmup"] {
		a.Warmup = abWarmup
	}
	return nil
}

// round runs one round on a side and returns its run folder. A round
// that recorded nothing after a warm-up is run again without one (see
// abCmd.noWarmup).
func (a *abCmd) round(ctx context.Context, cl *cli, s *abSide, series, root string, k int) (string, error) {
	dir, err := a.runRound(ctx, cl, s, series, root, k)
	if err != nil || a.noWarmup || a.Warmup == 0 {
		return dir, err
	}
	if info := results.ReadRunInfo(dir, nil); info == nil || info.Executions > 0 {
		return dir, nil
	}
	a.noWarmup = true
	fmt.Fprintf(logWriter(cl), "ab: round %d of %s recorded nothing: its events outlast the warm-up and the round; "+
		"running it again, and every later round, without warm-up\n", k, s.name)
	if err := os.RemoveAll(dir); err != nil {
		return "", err
	}
	return a.runRound(ctx, cl, s, series, root, k)
}

// runRound runs one round on a side by running the run command with the
// side's server, and returns the run folder.
func (a *abCmd) runRound(ctx context.Context, cl *cli, s *abSide, series, root string, k int) (string, error) {
	r := a.runCmd
	if a.noWarmup {
		r.Warmup = 0
	}
	r.DSN, r.Host, r.Port, r.Socket, r.Sandbox = s.server.dsns, s.server.host, s.server.port, s.server.socket, s.server.sandbox
	r.Out = filepath.Join(root, "side="+s.name)
	r.RunID = fmt.Sprintf("%s-%s-%02d", series, s.name, k)
	// The round's own progress and summary would bury ab's; run
	// prints its summary on standard output, which is ab's comparison.
	quiet := *cl
	quiet.Quiet = true
	null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		return "", err
	}
	defer null.Close()
	stdout := os.Stdout
	os.Stdout = null
	defer func() { os.Stdout = stdout }()
	if err := r.Run(ctx, &quiet); err != nil {
		return "", err
	}
	return filepath.Join(r.Out, results.RunDirPrefix+r.RunID), nil
}

// abServer is how --base or --candidate names a server: exactly one of
// its fields is set.
type abServer struct {
	dsns    []string
	host    string
	port    int
	socket  string
	sandbox string
	label   string // for messages: never holds a password
}

// parseServer reads the values of --base or --candidate.
func parseServer(flag string, vals []string) (abServer, error) {
	var s abServer
	var labels []string
	for _, v := range vals {
		v = strings.TrimSpace(v)
		switch {
		case strings.ContainsAny(v, "@("):
			cfg, err := mysql.ParseDSN(v)
			if err != nil {
				return s, usage.Errorf("%s: not a DSN: %v", flag, err)
			}
			s.dsns = append(s.dsns, v)
			labels = append(labels, cfg.Addr)
		case len(vals) > 1:
			return s, usage.Errorf("%s: only DSNs may be repeated (one per endpoint), got %q", flag, v)
		case strings.HasPrefix(v, "/"):
			s.socket, s.label = v, v
		case strings.Contains(v, ":"):
			host, port, err := net.SplitHostPort(v)
			p, perr := strconv.Atoi(port)
			if err != nil || perr != nil || p < 1 || p > 65535 {
				return s, usage.Errorf("%s: %q is not HOST:PORT", flag, v)
			}
			s.host, s.port, s.label = host, p, v
			if s.host == "" {
				s.host = "127.0.0.1"
			}
		case v == "":
			return s, usage.Errorf("%s: empty server", flag)
		default:
			s.sandbox, s.label = v, "sandbox "+v
		}
	}
	if len(s.dsns) > 0 {
		s.label = strings.Join(labels, ",")
	}
	return s, nil
}
