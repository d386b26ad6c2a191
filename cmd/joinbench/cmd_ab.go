package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/alecthomas/kong"

	"github.com/joinbench/joinbench/analysis/compare"
	"github.com/joinbench/joinbench/analysis/report"
	"github.com/joinbench/joinbench/internal/usage"
	"github.com/joinbench/joinbench/replay"
	"github.com/joinbench/joinbench/replay/ab"
	"github.com/joinbench/joinbench/results"
)

// abCmd runs the same workload interleaved on a base and a
// candidate server, then compares them round by round.
type abCmd struct {
	// The workload of every round: run's flags. The connection flags that
	// name a server do not apply (--base and --candidate do); the others
	// (user, password, TLS, sandbox folder) apply to both servers.
	runFlags `embed:""`

	Base          []string `required:"" sep:"none" group:"A/B" placeholder:"SERVER" help:"Base server: a named sandbox, HOST:PORT, a socket path or a DSN (repeat DSNs for several endpoints)."`
	Candidate     []string `sep:"none" group:"A/B" placeholder:"SERVER" help:"Candidate server, as --base (default: the base, with --calibrate)."`
	Rounds        int      `group:"A/B" help:"Rounds per side (default 12 slices with --interleave statements, 6 rounds with rounds)."`
	CandidateSlow string   `group:"A/B" placeholder:"PERCENT" help:"Make the candidate PERCENT slower on every statement (e.g. 20%): a proxy in this process holds each of its answers back by PERCENT of the time its server took; the base's connections go through the same kind of proxy, holding nothing. With --candidate omitted the candidate is the base's server: what ab catches on your setup (docs/compare.md, \"What a verdict can see\")."`
	Interleave    string   `default:"statements" enum:"statements,rounds" group:"A/B" help:"statements: one run on each server at once, the two taking turns statement by statement, each --time slice a round; rounds: each round a run of its own on one server, alternating base, candidate, candidate, base, ..."`

	verdictFlags `embed:"" group:"Verdicts"`
	Format       string `short:"f" enum:"text,markdown,json,html" default:"text" group:"Verdicts" help:"Output format of the comparison: text, markdown, json or html (the compare view, one self-contained page)."`
	Output       string `short:"o" type:"path" placeholder:"FILE" group:"Verdicts" help:"Write the comparison to FILE instead of standard output."`
	JSON         bool   `hidden:"" aliasof:"format=json" help:"Print the comparison as JSON: --format json."`

	slow *slowCandidate // --candidate-slow, nil without it
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
machine, whose speed wanders over seconds (whole runs drift by up to about
30%), that cancels what rounds of seconds cannot. The measured phase, --rounds slices (default 12)
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

Every "no change" says the smallest slowdown it could have called:
"no change <12%" rules out a slowdown of 12% or more on that scenario.
What ab can see at a given --time, --rounds and --threads is in
docs/compare.md, "What a verdict can see" and "How many rounds, how long".
To see it on your own setup: --candidate-slow 20% (the candidate omitted:
the base's server, every answer held back 20% of its server's time)
should be called a regression.

Both servers must hold the same data (joinbench prepare with the same
--tables, --table-size and --seed on each): ab compares what prepare
recorded on each and refuses different data before any round
(--allow-different-data accepts it). SERVER is a sandbox name
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
with --calibrate), when a side recorded no execution at all or failed
(its server stopped answering, lost its connections, or completed
markedly fewer statements than the other), and when a server that
answered a round cannot be reached; 0 otherwise; 2 on a usage error.

Examples:
  joinbench ab --base m1011 --candidate m114 --tags inner,left,right,derived,semi_anti \
      --threads 2 --format markdown -o comment.md
  joinbench ab --base m1011 --calibrate noise.json --rounds 20
  joinbench ab --base m1011 --candidate-slow 20%
  joinbench ab --base 127.0.0.1:3306 --candidate 127.0.0.1:3307 --noise-file noise.json
  joinbench ab --base m1011 --candidate m114 --all --threads 16 --interleave rounds --rounds 10`
}

func (a *abCmd) Run(ctx context.Context, cl *cli, kctx *kong.Context) error {
	if err := a.check(kctx); err != nil {
		return err
	}
	servers, err := a.servers()
	if err != nil {
		return err
	}
	opt, err := a.verdictFlags.options(cl)
	if err != nil {
		return err
	}
	e, err := a.experiment(cl, servers)
	if err != nil {
		return err
	}
	metrics, err := a.metricsFlags.serve(&e.Workload, e.Log)
	if err != nil {
		return err
	}
	if err := a.checkData(ctx, servers, opt); err != nil {
		return metrics.close(ctx, err)
	}
	switch {
	case a.slow != nil && servers[0].same(servers[1]):
		fmt.Fprintf(e.Log, "ab: the candidate is the base's server (%s) with every answer held back %s: how large a slowdown this setup's verdicts catch\n",
			servers[0].label, pctLabel(a.slow.extra))
	case servers[0].same(servers[1]) && a.Calibrate == "":
		fmt.Fprintf(e.Log, "ab: the base and the candidate are the same server (%s): an A/A test, where nothing differs between the sides "+
			"but the noise of this setup (--calibrate records it)\n", servers[0].label)
	}
	res, err := e.Run(ctx)
	if a.slow != nil {
		a.slow.report(e.Log)
	}
	var se *ab.ServerError
	if errors.As(err, &se) {
		return metrics.close(ctx, serverFailed{err})
	}
	if err != nil {
		return metrics.close(ctx, err)
	}
	fmt.Fprintf(e.Log, "ab: compare again with: joinbench compare %s %s\n", res.SideDir(ab.Base), res.SideDir(ab.Candidate))
	if a.slow != nil {
		a.judged = func(c *compare.Comparison) { a.slow.caught(e.Log, c) }
	}
	return metrics.close(ctx, a.compareOrCalibrate(cl, res.Runs[ab.Base], res.Runs[ab.Candidate], opt, a.Format, a.Output))
}

// servers are the base and candidate servers --base and --candidate name.
func (a *abCmd) servers() ([2]abServer, error) {
	base, err := parseServer("--base", a.Base)
	if err != nil {
		return [2]abServer{}, err
	}
	cand := base
	if len(a.Candidate) > 0 {
		if cand, err = parseServer("--candidate", a.Candidate); err != nil {
			return [2]abServer{}, err
		}
	} else if a.Calibrate == "" && a.slow == nil {
		return [2]abServer{}, usage.Errorf("--candidate is missing (only --calibrate, or --candidate-slow, runs every round on the base)")
	}
	return [2]abServer{base, cand}, nil
}

// experiment maps the flags to the experiment, its runs made on servers.
func (a *abCmd) experiment(cl *cli, servers [2]abServer) (*ab.Experiment, error) {
	// The experiment sets each run's log and progress writers.
	o := a.runFlags.options(cl)
	if ab.Interleave(a.Interleave) == ab.Rounds {
		// Each round is a run as run makes it: a segment of one when
		// --segment or the environment says so.
		var err error
		if o, err = a.runFlags.segmentOptions(cl); err != nil {
			return nil, err
		}
	}
	return &ab.Experiment{
		Series: a.RunID, Out: a.Out, Interleave: ab.Interleave(a.Interleave), Rounds: a.Rounds, Workload: o,
		Labels: a.labels(servers), RunOn: a.runOn(servers), Log: logWriter(cl), HeldBack: a.slow.share(),
	}, nil
}

// runOn makes each run of the experiment as run would, on the server of
// its side; the run's summary is not shown.
func (a *abCmd) runOn(servers [2]abServer) ab.RunFunc {
	return func(ctx context.Context, side ab.Side, o replay.Options) (string, error) {
		cf := a.sideFlags(servers[side])
		if a.slow != nil {
			cf.via = a.slow.route(side)
		}
		var dir string
		err := runOnce(ctx, &cf, o, o.Log, func(out *replay.Outcome, _ io.Writer) error {
			dir = out.Dir
			return nil
		})
		return dir, err
	}
}

// labels name the two sides' servers, the candidate's slowdown said.
func (a *abCmd) labels(servers [2]abServer) [2]string {
	l := [2]string{servers[0].label, servers[1].label}
	if a.slow != nil {
		l[1] = a.slow.label(l[1])
	}
	return l
}

// sideFlags are the connection flags of the server s.
func (a *abCmd) sideFlags(s abServer) connFlags {
	cf := a.connFlags
	cf.DSN, cf.Host, cf.Port, cf.Socket, cf.Sandbox = s.dsns, s.host, s.port, s.socket, s.sandbox
	return cf
}

// checkData refuses, before any round, two servers that hold different
// data (the datasets their prepare recorded), unless the flags accept it:
// the comparison would refuse them after the rounds anyway. A server that
// cannot be asked is left to the rounds to report.
func (a *abCmd) checkData(ctx context.Context, servers [2]abServer, opt compare.Options) error {
	if opt.AllowDifferentData || servers[0].same(servers[1]) {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, 3*datasetTimeout)
	defer cancel()
	var sets [2]*results.Dataset
	for i, s := range servers {
		cf := a.sideFlags(s)
		tgt, err := cf.connect(ctx, io.Discard)
		if err != nil {
			return nil
		}
		db, err := tgt.Endpoints[0].OpenDB()
		if err == nil {
			sets[i], _ = readDataset(ctx, db, io.Discard)
			db.Close()
		}
		tgt.Close()
		if err != nil {
			return nil
		}
	}
	var differ *compare.DatasetsDiffer
	if err := compare.SameDataset("the base", "the candidate", sets[0], sets[1]); errors.As(err, &differ) {
		return usage.Wrap(err)
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
	mode := ab.Interleave(a.Interleave)
	if !given["rounds"] {
		a.Rounds = mode.DefaultRounds()
	}
	if a.Rounds < 1 || a.Rounds > report.MaxRounds {
		return usage.Errorf("--rounds must be 1 to %d, got %d", report.MaxRounds, a.Rounds)
	}
	if a.CandidateSlow != "" {
		if a.Calibrate != "" {
			return usage.Errorf("--candidate-slow does not go with --calibrate: calibration measures a setup where nothing differs")
		}
		var err error
		if a.slow, err = parseSlowPercent(a.CandidateSlow); err != nil {
			return err
		}
	}
	if a.Calibrate != "" && a.Rounds < 2 {
		return usage.Errorf("--calibrate needs at least 2 rounds per side, got --rounds %d", a.Rounds)
	}
	for _, name := range []string{"dsn", "host", "port", "socket", "sandbox"} {
		if given[name] {
			return usage.Errorf("--%s does not apply to ab: name the servers with --base and --candidate", name)
		}
	}
	if mode == ab.Statements {
		if err := a.checkLockstep(given); err != nil {
			return err
		}
	}
	if a.Time == 0 && a.Events == 0 {
		a.Time = mode.DefaultTime()
	}
	if !given["warmup"] {
		a.Warmup = ab.DefaultWarmup
	}
	return nil
}

// checkLockstep refuses the flags that have no meaning when the two sides
// take turns statement by statement.
func (a *abCmd) checkLockstep(given map[string]bool) error {
	switch {
	case a.Events > 0:
		return usage.Errorf("--events does not apply to --interleave statements: its rounds are slices of --time")
	case a.Rate > 0:
		return usage.Errorf("--rate does not apply to --interleave statements: the turns set the pace")
	case given["segment"]:
		return usage.Errorf("--segment does not apply to ab")
	}
	return nil
}

// serverFailed makes ab exit 1 when a server failed during the
// experiment, after answering: even "cannot reach" is then no mistake of
// the user's.
type serverFailed struct{ error }

func (e serverFailed) Unwrap() error { return e.error }

func (serverFailed) ExitCode() int { return 1 }
