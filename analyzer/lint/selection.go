package lint

import (
	"strings"

	"github.com/joinbench/joinbench/analyzer"
	"github.com/joinbench/joinbench/analyzer/rules"
	"github.com/joinbench/joinbench/internal/suggest"
	"github.com/joinbench/joinbench/internal/usage"
)

// ruleSelection is lint's --select and --ignore: which rules run. The
// command line wins over lint.conf: a rule not selected, or ignored, is
// off whatever lint.conf says, and a selected rule runs even where
// lint.conf turns it off (at lint.conf's severity otherwise).
// scenario-format always runs: a file that does not load cannot be
// checked further.
type ruleSelection struct {
	selected map[string]bool // nil: every rule
	ignored  map[string]bool
}

// newRuleSelection reads the rule names of --select and --ignore (each
// value may be a comma list); an unknown name is a usage error with a
// suggestion.
func newRuleSelection(sel, ign []string) (ruleSelection, error) {
	var r ruleSelection
	var err error
	if len(sel) > 0 {
		if r.selected, err = ruleSet("--select", sel); err != nil {
			return r, err
		}
	}
	if r.ignored, err = ruleSet("--ignore", ign); err != nil {
		return r, err
	}
	if r.ignored[analyzer.ScenarioFormat.Name] {
		return r, usage.Errorf("--ignore %s: a file that does not load cannot be linted, so this rule always runs", analyzer.ScenarioFormat.Name)
	}
	return r, nil
}

func ruleSet(flag string, values []string) (map[string]bool, error) {
	set := map[string]bool{}
	for _, v := range values {
		for _, name := range strings.Split(v, ",") {
			name = strings.TrimSpace(name)
			if name == "" {
				continue
			}
			if rules.Lookup(name) == nil {
				return nil, usage.Errorf("%s: no rule %s%s (joinbench lint --rules lists them)", flag, name, suggest.DidYouMean(name, rules.Names()))
			}
			set[name] = true
		}
	}
	return set, nil
}

// apply turns off the rules the selection leaves out, and on (at their
// default severity) the selected ones a configuration turned off.
func (r ruleSelection) apply(o *analyzer.Options) {
	if r.selected == nil && len(r.ignored) == 0 {
		return
	}
	sev := make(map[string]analyzer.Severity, len(rules.All()))
	for k, v := range o.Severity {
		sev[k] = v
	}
	for _, a := range rules.All() {
		switch {
		case a == analyzer.ScenarioFormat:
		case r.ignored[a.Name] || r.selected != nil && !r.selected[a.Name]:
			sev[a.Name] = analyzer.Off
		case r.selected[a.Name]:
			if s, set := sev[a.Name]; set && s == analyzer.Off {
				delete(sev, a.Name)
			}
		}
	}
	o.Severity = sev
}
