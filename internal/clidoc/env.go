package clidoc

import (
	"slices"
	"strings"

	"github.com/alecthomas/kong"
)

type envVar struct{ name, flag, help string }

// environment lists every environment variable a visible flag reads, by
// name, with the first flag that reads it.
func environment(root *kong.Node) []envVar {
	seen := map[string]bool{}
	var out []envVar
	var visit func(n *kong.Node)
	visit = func(n *kong.Node) {
		for _, f := range n.Flags {
			if f.Hidden {
				continue
			}
			for _, e := range f.Envs {
				if !seen[e] {
					seen[e] = true
					out = append(out, envVar{e, "--" + f.Name, f.Help})
				}
			}
		}
		for _, child := range n.Children {
			if !child.Hidden {
				visit(child)
			}
		}
	}
	visit(root)
	slices.SortFunc(out, func(a, b envVar) int { return strings.Compare(a.name, b.name) })
	return out
}
