package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/alecthomas/kong"

	"github.com/joinbench/joinbench/analyzer/rules"
	"github.com/joinbench/joinbench/corpus"
	"github.com/joinbench/joinbench/internal/shellcomplete"
)

// completionCmd prints a shell's completion script. The script asks
// joinbench itself (the hidden __complete command) on every Tab, so it
// never goes stale: new commands, flags and scenarios complete at once.
type completionCmd struct {
	Shell string `arg:"" enum:"bash,zsh,fish" help:"Shell to complete in: bash, zsh or fish."`
}

func (completionCmd) Help() string {
	return `Completes commands, flags, enum values, file names, and the scenario
names of -s/--scenario, show and rewrite (from the built-in corpus and the
--corpus folders given on the line). On every Tab the script asks the
joinbench that the line runs, so completion follows that build's commands.

Examples:
  source <(joinbench completion bash)                  # in ~/.bashrc
  joinbench completion zsh > "${fpath[1]}/_joinbench"   # or source <(joinbench completion zsh) in ~/.zshrc
  joinbench completion fish > ~/.config/fish/completions/joinbench.fish`
}

func (c *completionCmd) Run(kctx *kong.Context) error {
	script, err := shellcomplete.Script(c.Shell, kctx.Model.Name)
	if err != nil {
		return err
	}
	_, err = fmt.Fprint(kctx.Stdout, script)
	return err
}

// completeCmd answers the completion scripts: the words typed after
// joinbench, the last one being completed, unparsed.
type completeCmd struct {
	Words []string `arg:"" optional:""`
}

func (c *completeCmd) Run(kctx *kong.Context) error {
	completer := shellcomplete.Completer{App: kctx.Model, Predict: predictor}
	return shellcomplete.Write(kctx.Stdout, completer.Complete(c.Words))
}

// predictor names the flags and arguments whose values come from the
// corpus rather than from the kong model.
func predictor(node *kong.Node, v *kong.Value) shellcomplete.Predictor {
	switch {
	case v.Flag != nil && v.Name == "scenario":
		return scenarioNames
	case v.Flag != nil && v.Name == "tags":
		return scenarioTags
	case v.Flag == nil && v.Name == "name" && slices.Contains([]string{"show", "rewrite"}, node.Name):
		return scenarioNames
	case v.Flag != nil && v.Name == "explain-rule":
		return ruleNames
	}
	return nil
}

// ruleNames completes lint --explain-rule: the rules, and all.
func ruleNames(_ shellcomplete.Line, prefix string) []shellcomplete.Candidate {
	out := []shellcomplete.Candidate{{Value: "all", Description: "every rule's documentation"}}
	for _, a := range rules.All() {
		out = append(out, shellcomplete.Candidate{Value: a.Name, Description: a.Doc})
	}
	return slices.DeleteFunc(out, func(c shellcomplete.Candidate) bool { return !strings.HasPrefix(c.Value, prefix) })
}

// lineCorpus loads the corpus the line chooses (--corpus, --no-builtin),
// or the built-in one when a folder of the line does not load.
func lineCorpus(line shellcomplete.Line) *corpus.Corpus {
	opts := corpus.LoadOptions{
		Dirs:      line.Flags["corpus"],
		Override:  len(line.Flags["override"]) > 0,
		NoBuiltin: len(line.Flags["no-builtin"]) > 0,
	}
	cp, err := corpus.Load(opts)
	if err != nil {
		cp, err = corpus.Load(corpus.LoadOptions{})
	}
	if err != nil {
		return nil
	}
	return cp
}

func scenarioNames(line shellcomplete.Line, prefix string) []shellcomplete.Candidate {
	cp := lineCorpus(line)
	if cp == nil {
		return nil
	}
	var out []shellcomplete.Candidate
	for _, s := range cp.Scenarios() {
		if strings.HasPrefix(s.Name, prefix) {
			out = append(out, shellcomplete.Candidate{Value: s.Name, Description: s.Description})
		}
	}
	return out
}

// scenarioTags completes the last tag of a --tags value: a list of tags
// separated by "," (any of them) and "+" (each of them).
func scenarioTags(line shellcomplete.Line, prefix string) []shellcomplete.Candidate {
	cp := lineCorpus(line)
	if cp == nil {
		return nil
	}
	i := strings.LastIndexAny(prefix, ",+")
	done, last := prefix[:i+1], prefix[i+1:]
	count := map[string]int{}
	var tags []string
	for _, s := range cp.Scenarios() {
		for _, t := range s.Tags {
			if count[t] == 0 {
				tags = append(tags, t)
			}
			count[t]++
		}
	}
	slices.Sort(tags)
	var out []shellcomplete.Candidate
	for _, t := range tags {
		if strings.HasPrefix(t, last) {
			out = append(out, shellcomplete.Candidate{Value: done + t, Description: fmt.Sprintf("%d scenarios", count[t])})
		}
	}
	return out
}
