package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"reflect"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/alecthomas/kong"

	"github.com/joinbench/joinbench/internal/usage"
	buildversion "github.com/joinbench/joinbench/internal/version"
	"github.com/joinbench/joinbench/replay/action"
)

// version is what --version prints and run.json records. make build and
// the container image stamp it with -ldflags "-X main.version=..."; init
// falls back to the Go build information, so that a go install build also
// knows what it is.
var version string

func init() { version = buildversion.Current(version) }

// cli is the whole command line. Each subcommand lives in its own
// cmd_<name>.go file as a struct with a Run method; add it here.
type cli struct {
	Quiet   bool             `help:"Print nothing but results and errors." short:"q"`
	Version kong.VersionFlag `help:"Print the version and exit."`

	Sandbox    sandboxCmd    `cmd:"" help:"Start, stop and list named sandbox servers (throwaway MariaDB/MySQL instances)."`
	List       listCmd       `cmd:"" help:"List the scenarios of the corpus (built-in and --corpus folders)."`
	Show       showCmd       `cmd:"" help:"Print a scenario file and render it with seeded parameter values."`
	Prepare    prepareCmd    `cmd:"" help:"Create the workload's tables and load them with deterministic generated rows."`
	Run        runCmd        `cmd:"" help:"Replay scenarios concurrently; record every execution's timing and every plan in Parquet."`
	Warmup     warmupCmd     `cmd:"" help:"Read every table and index of the prepared tables into the buffer pool; report how much fits."`
	Cleanup    cleanupCmd    `cmd:"" help:"Drop the tables prepare creates (and nothing else)."`
	Repair     repairCmd     `cmd:"" help:"Undo what a killed joinbench left on a server or sandbox (settings, pt-osc triggers and copies), or list it (--list); every command on a server does so first."`
	Snapshot   snapshotCmd   `cmd:"" help:"List and remove the dataset snapshots prepare --snapshot saves and restores."`
	Report     reportCmd     `cmd:"" help:"Summarise runs: latency percentiles, throughput over time, plans (text, markdown, json, html)."`
	Compare    compareCmd    `cmd:"" help:"Compare a candidate run with a base run: regressions, plan changes, wrong results; exit 1 on regression."`
	Experiment experimentCmd `cmd:"" help:"Run one lesson (slow-node, ddl-methods, chunked-dml, hot-vs-uniform, recovery) on a sandbox cluster: its table and a verdict in words, as one page."`
	AB         abCmd         `cmd:"" name:"ab" help:"Run the workload on a base and a candidate server interleaved (statement by statement, or in alternating rounds) and compare them: verdicts that hold on a noisy machine; exit 1 on regression."`
	Import     importCmd     `cmd:"" help:"Make scenario files of a captured workload: a slow log, a general log or performance_schema's digest table, grouped by fingerprint."`
	Lint       lintCmd       `cmd:"" help:"Statically check scenario and DDL files: syntax, names, placeholders, hints, risky joins and writes; exit 1 on errors."`
	Rewrite    rewriteCmd    `cmd:"" help:"Print a scenario with every RIGHT JOIN rewritten to the equivalent LEFT JOIN."`
	Help       helpCmd       `cmd:"" hidden:"" help:"Print a command's help, or the reference of every command as Markdown (--markdown)."`

	Completion completionCmd `cmd:"" help:"Print the shell completion script for bash, zsh or fish."`
	Man        manCmd        `cmd:"" help:"Print joinbench's manual page (roff), for man -l or a man1 folder."`
	Complete   completeCmd   `cmd:"" name:"__complete" hidden:"" passthrough:"" help:"Answer the completion scripts."`
}

const description = `joinbench finds join performance regressions in MySQL-family servers
(MySQL, Percona Server, MariaDB, PXC/Galera, TiDB).

Join scenarios are plain templated .sql files. They are linted before anything
runs, replayed concurrently against a server, and every execution's timing and
every scenario's EXPLAIN plan are written to Parquet for report and compare.`

func main() {
	stop := profileFromEnv()
	code := run(os.Args[1:])
	stop()
	os.Exit(code)
}

// cliVars are the values the flags' help interpolates: the version.
func cliVars() kong.Vars {
	return kong.Vars{"version": version}
}

// actionKindsMark is where --action's help lists the kinds of action as
// their descriptors give them; the help escapes it from kong's own
// interpolation ($${action_kinds}) and fillActionKinds fills it in once
// the parser is built. Kong interpolates every variable into every
// flag's texts: as a variable, these 350 characters were a quarter of the
// instructions every command spent starting (joinbench --version, under
// callgrind: 126 million against 96 million without).
const actionKindsMark = "${action_kinds}"

// fillActionKinds writes the kinds of action into the help that marks
// where they go.
func fillActionKinds(model *kong.Node) {
	_ = kong.Visit(model, func(v kong.Visitable, next kong.Next) error {
		if val, ok := v.(*kong.Value); ok && strings.Contains(val.Help, actionKindsMark) {
			val.Help = strings.ReplaceAll(val.Help, actionKindsMark, action.Usage())
		}
		return next(nil)
	})
}

// newParser is the parser of the command line into c, as joinbench runs
// it and as tests build it.
func newParser(c *cli, options ...kong.Option) (*kong.Kong, error) {
	k, err := kong.New(c, append([]kong.Option{
		kong.Name("joinbench"),
		kong.Description(description),
		kong.ConfigureHelp(kong.HelpOptions{Compact: true, Summary: true}),
		kong.TypeMapper(reflect.TypeOf(time.Duration(0)), durationMapper()),
		cliVars(),
	}, options...)...)
	if err != nil {
		return nil, err
	}
	fillActionKinds(k.Model.Node)
	return k, nil
}

// Exit codes.
const (
	exitInterrupted = 130 // Ctrl-C or SIGTERM, as shells report a process ended by SIGINT
)

// run parses args, runs the chosen command and maps its error to an exit
// code: 0 success, 1 failure or findings, 2 a user mistake, 130 interrupted.
func run(args []string) int {
	var c cli
	parser, err := newParser(&c, kong.UsageOnError())
	if err != nil {
		fmt.Fprintln(os.Stderr, "joinbench:", err)
		return 2
	}
	kctx, err := parser.Parse(args)
	if err == nil {
		err = applyFlagAliases(kctx, logWriter(&c))
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "joinbench:", err)
		return 2
	}
	ctx, interrupted, stop := interruptible(c.Quiet)
	defer stop()
	kctx.BindTo(ctx, (*context.Context)(nil))
	err = kctx.Run(&c)
	code := exitCode(err)
	if interrupted() && code != 2 {
		if err == nil {
			fmt.Fprintln(os.Stderr, "joinbench: interrupted")
		}
		return exitInterrupted
	}
	return code
}

// interruptible returns a context cancelled by the first Ctrl-C or SIGTERM,
// which the commands take as "stop cleanly, keep what was done"; a second
// one exits at once. interrupted reports whether one came; stop ends the
// handling.
func interruptible(quiet bool) (ctx context.Context, interrupted func() bool, stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	var got atomic.Bool
	go func() {
		select {
		case <-sigs:
		case <-done:
			return
		}
		got.Store(true)
		cancel()
		if !quiet {
			fmt.Fprintln(os.Stderr, "joinbench: stopping; interrupt again to exit at once")
		}
		select {
		case <-sigs:
			fmt.Fprintln(os.Stderr, "joinbench: interrupted again: exiting now")
			os.Exit(exitInterrupted)
		case <-done:
		}
	}()
	return ctx, got.Load, func() {
		signal.Stop(sigs)
		close(done)
		cancel()
	}
}

// exitCoder lets a command choose its exit code (lint findings, compare
// regressions) without that being printed as an error.
type exitCoder interface{ ExitCode() int }

func exitCode(err error) int {
	if err == nil {
		return 0
	}
	var ec exitCoder
	// A child process's *exec.ExitError has an ExitCode too (-1 when a
	// signal killed it, which os.Exit makes 255): it is the child's
	// status, never joinbench's, and a code no shell reads as ours
	// (above 125) is a plain failure.
	var child *exec.ExitError
	if errors.As(err, &ec) && !errors.As(err, &child) && ec.ExitCode() >= 0 && ec.ExitCode() <= 125 {
		if msg := err.Error(); msg != "" {
			fmt.Fprintln(os.Stderr, "joinbench:", msg)
		}
		return ec.ExitCode()
	}
	fmt.Fprintln(os.Stderr, "joinbench:", err)
	if usage.Is(err) {
		return 2
	}
	return 1
}
