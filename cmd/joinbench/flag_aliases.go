package main

import (
	"fmt"
	"io"
	"reflect"
	"strings"

	"github.com/alecthomas/kong"

	"github.com/joinbench/joinbench/internal/usage"
)

// Second and old spellings of flags are hidden flags tagged with the flag
// they stand for, so that the conventions can rename a flag without
// breaking the scripts that use it:
//
//	aliasof:"format=json"   --json is --format json (both are fine: no note)
//	renamed:"explain-rule"  --explain X is --explain-rule X, with a note on stderr
//
// A tag's value is the flag stood for, with "=VALUE" when the alias gives
// it a fixed value rather than its own.

// applyFlagAliases gives the flags that the aliases on the parsed command
// line stand for their values, noting each renamed spelling on note.
func applyFlagAliases(kctx *kong.Context, note io.Writer) error {
	flags := kctx.Flags()
	byName := map[string]*kong.Flag{}
	for _, f := range flags {
		byName[f.Name] = f
	}
	given := map[*kong.Flag]bool{}
	for _, p := range kctx.Path {
		if p.Flag != nil {
			given[p.Flag] = true
		}
	}
	for _, f := range flags {
		spec, renamed := aliasSpec(f)
		if spec == "" || !given[f] || f.IsBool() && !f.Target.Bool() {
			continue
		}
		name, value, fixed := strings.Cut(spec, "=")
		to := byName[name]
		if to == nil {
			return fmt.Errorf("--%s stands for --%s, which %s does not have", f.Name, name, kctx.Command())
		}
		v := f.Target
		if fixed {
			v = reflect.New(to.Target.Type()).Elem()
			if err := to.Parse(kong.Scan(value), v); err != nil {
				return err
			}
		}
		if given[to] && !reflect.DeepEqual(to.Target.Interface(), v.Interface()) {
			return usage.Errorf("--%s and --%s disagree: give --%s only", f.Name, to.Name, to.Name)
		}
		to.Target.Set(v)
		if renamed {
			fmt.Fprintf(note, "joinbench: --%s is deprecated: use --%s\n", f.Name, strings.Replace(spec, "=", " ", 1))
		}
	}
	return nil
}

// aliasSpec is what an alias flag stands for ("" for a flag that is no
// alias), and whether it is an old spelling.
func aliasSpec(f *kong.Flag) (spec string, renamed bool) {
	if spec = f.Tag.Get("renamed"); spec != "" {
		return spec, true
	}
	return f.Tag.Get("aliasof"), false
}
