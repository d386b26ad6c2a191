package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/joinbench/joinbench/internal/testdb"
)

func completions(t *testing.T, words ...string) []string {
	t.Helper()
	code, out := runCaptured(t, append([]string{"__complete"}, words...)...)
	if code != 0 {
		t.Fatalf("__complete %q: exit %d", words, code)
	}
	var values []string
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		if !strings.HasPrefix(line, ":") {
			value, _, _ := strings.Cut(line, "\t")
			values = append(values, value)
		}
	}
	return values
}

func TestCompleteScenariosAndTags(t *testing.T) {
	for _, tc := range []struct {
		words []string
		want  string
	}{
		{[]string{"ru"}, "run"},
		{[]string{"sandbox", "st"}, "start"},
		{[]string{"run", "-s", "simple_inner_p"}, "simple_inner_pk"},
		{[]string{"run", "--scenario=simple_inner_p"}, "--scenario=simple_inner_pk"},
		{[]string{"ab", "--scenario", "simple_inner_p"}, "simple_inner_pk"},
		{[]string{"show", "simple_left_p"}, "simple_left_pk"},
		{[]string{"rewrite", "simple_right_p"}, "simple_right_pk"},
		{[]string{"run", "--tags", "inner,le"}, "inner,left"},
		{[]string{"run", "--tags", "left+multi"}, "left+multilevel"},
		{[]string{"list", "--tags", "le"}, "left"},
		{[]string{"ab", "--tags", "inner,le"}, "inner,left"},
		{[]string{"show", "simple_inner_pk", "--thread"}, "--thread-id"},
		{[]string{"lint", "--explain-rule", "right-j"}, "right-join"},
		{[]string{"list", "--format", ""}, ""},
		{[]string{"report", "--format", "h"}, "html"},
		{[]string{"completion", "f"}, "fish"},
	} {
		got := completions(t, tc.words...)
		if tc.want == "" {
			continue
		}
		if !slices.Contains(got, tc.want) {
			t.Errorf("%q: want %q among %q", tc.words, tc.want, got)
		}
	}
	if got := completions(t, "run", "-s", ""); len(got) != 45 {
		t.Errorf("run -s: %d scenario names, want the 45 built-in ones", len(got))
	}
	if got := completions(t, "__comp"); len(got) != 0 {
		t.Errorf("the hidden command is offered: %q", got)
	}
}

// A --corpus folder on the line adds its scenarios to the completions.
func TestCompleteUserCorpus(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "..", "corpus", "scenarios", "inner", "simple_inner_pk.sql"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	own := strings.Replace(string(src), "-- scenario: simple_inner_pk", "-- scenario: my_own_join", 1)
	if err := os.WriteFile(filepath.Join(dir, "my_own_join.sql"), []byte(own), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := completions(t, "run", "--corpus", dir, "-s", "my_own"); !slices.Equal(got, []string{"my_own_join"}) {
		t.Errorf("run --corpus DIR -s my_own: %q", got)
	}
	if got := completions(t, "run", "-s", "my_own"); len(got) != 0 {
		t.Errorf("run -s my_own without --corpus: %q", got)
	}
}

// joinbenchOnPath puts a command named joinbench on a fresh PATH: the test
// binary, behaving as joinbench (TestMain), so the shells run this build.
func joinbenchOnPath(t *testing.T) (dir string, env []string) {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir = t.TempDir()
	wrapper := "#!/bin/sh\nIFS=$(printf '\\037')\n" + mainArgsEnv + "=\"$*\" exec '" + self + "'\n"
	if err := os.WriteFile(filepath.Join(dir, "joinbench"), []byte(wrapper), 0o755); err != nil {
		t.Fatal(err)
	}
	return dir, append(os.Environ(), "PATH="+dir+string(os.PathListSeparator)+os.Getenv("PATH"))
}

func shellOutput(t *testing.T, env []string, shell string, args ...string) string {
	t.Helper()
	cmd := exec.Command(shell, args...)
	cmd.Env = env
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %q: %v\n%s", shell, args, err, out)
	}
	return string(out)
}

func writeScript(t *testing.T, dir, shell string) string {
	t.Helper()
	code, script := runCaptured(t, "completion", shell)
	if code != 0 {
		t.Fatalf("completion %s: exit %d", shell, code)
	}
	path := filepath.Join(dir, "completion."+shell)
	if err := os.WriteFile(path, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// The bash script, sourced, completes as bash calls it on Tab: with
// COMP_WORDS split at "=" as bash splits them.
func TestCompletionBash(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		testdb.Skipf(t, "bash: %v", err)
	}
	dir, env := joinbenchOnPath(t)
	script := writeScript(t, dir, "bash")
	complete := func(words ...string) string {
		t.Helper()
		quoted := make([]string, len(words))
		for i, w := range words {
			quoted[i] = "'" + w + "'"
		}
		return shellOutput(t, env, "bash", "-c", `source "$1" || exit 1
complete -p joinbench >/dev/null || exit 1
COMP_WORDS=(joinbench `+strings.Join(quoted, " ")+`)
COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
COMP_LINE="${COMP_WORDS[*]}"
COMP_POINT=${#COMP_LINE}
_joinbench 2>/dev/null
printf '%s\n' "${COMPREPLY[@]}"`, "bash", script)
	}
	for _, tc := range []struct {
		words []string
		want  string
	}{
		{[]string{"ru"}, "run\n"},
		{[]string{"sandbox", "sta"}, "start\nstatus\n"},
		{[]string{"run", "-s", "simple_inner_p"}, "simple_inner_pk\nsimple_inner_pk_GB\n"},
		{[]string{"run", "--scenario", "=", "simple_inner_p"}, "simple_inner_pk\nsimple_inner_pk_GB\n"},
		{[]string{"show", "simple_left_pk_"}, "simple_left_pk_GB\n"},
	} {
		if got := complete(tc.words...); got != tc.want {
			t.Errorf("bash, joinbench %s<Tab>: %q, want %q", strings.Join(tc.words, " "), got, tc.want)
		}
	}
}

// zsh's completion system needs a terminal; the script is run with
// _describe standing in for it, printing what it would offer.
func TestCompletionZsh(t *testing.T) {
	if _, err := exec.LookPath("zsh"); err != nil {
		testdb.Skipf(t, "zsh: %v (scripts/install-deps.sh shells installs it)", err)
	}
	dir, env := joinbenchOnPath(t)
	script := writeScript(t, dir, "zsh")
	shellOutput(t, env, "zsh", "-n", script)
	out := shellOutput(t, env, "zsh", "-c", `compdef() { registered=$* }
_describe() { print -rl -- "${(@P)${@[-1]}}" }
source "$1"
[[ $registered == "_joinbench joinbench" ]] || { print "not registered: $registered"; exit 1 }
words=(joinbench run -s simple_inner_p); CURRENT=4; _joinbench
words=(joinbench sandbox sta); CURRENT=3; _joinbench`, "zsh", script)
	if !strings.Contains(out, "simple_inner_pk:") || !strings.Contains(out, "start:Start a named sandbox") {
		t.Errorf("zsh: the script offered\n%s", out)
	}
}

// fish completes a command line without a terminal: complete -C.
func TestCompletionFish(t *testing.T) {
	if _, err := exec.LookPath("fish"); err != nil {
		testdb.Skipf(t, "fish: %v (scripts/install-deps.sh shells installs it)", err)
	}
	dir, env := joinbenchOnPath(t)
	script := writeScript(t, dir, "fish")
	out := shellOutput(t, env, "fish", "--no-config", "-c", `source $argv[1]
complete -C'joinbench run -s simple_inner_p'
complete -C'joinbench sandbox sta'
complete -C'joinbench run --scenario=simple_left_p'`, script)
	for _, want := range []string{"simple_inner_pk\t", "start\tStart a named sandbox", "--scenario=simple_left_pk"} {
		if !strings.Contains(out, want) {
			t.Errorf("fish: want %q in\n%s", want, out)
		}
	}
}
