package clidoc

import (
	"fmt"
	"slices"

	"github.com/alecthomas/kong"
)

// flagGroup is the flags of one group tag; title "" for the flags of no
// group, which --help lists first under "Flags".
type flagGroup struct {
	title string
	flags []*kong.Flag
}

// groupFlags groups the visible flags in --help's order: the ungrouped
// ones first, then each group in order of first appearance.
func groupFlags(flags []*kong.Flag) []flagGroup {
	var groups []flagGroup
	index := map[string]int{}
	for _, f := range flags {
		if f.Hidden {
			continue
		}
		title := ""
		if f.Group != nil {
			title = f.Group.Title
		}
		i, seen := index[title]
		if !seen {
			i = len(groups)
			index[title] = i
			groups = append(groups, flagGroup{title: title})
		}
		groups[i].flags = append(groups[i].flags, f)
	}
	slices.SortStableFunc(groups, func(a, b flagGroup) int {
		switch {
		case a.title == "" && b.title != "":
			return -1
		case b.title == "" && a.title != "":
			return 1
		}
		return 0
	})
	return groups
}

// commandFlags are the visible flags of node and of its ancestors below
// the application, as --help shows them; the application's own are the
// global flags, written once.
func commandFlags(node *kong.Node) []*kong.Flag {
	var flags []*kong.Flag
	for n := node; n != nil && n.Type != kong.ApplicationNode; n = n.Parent {
		flags = append(append([]*kong.Flag(nil), n.Flags...), flags...)
	}
	return flags
}

// sharedGroups are the flag groups that several commands take alike,
// such as the connection flags: a reference lists each once rather than
// with every command. A group whose flags differ between commands is
// listed with each command.
func sharedGroups(root *kong.Node) []flagGroup {
	var order []flagGroup
	uses := map[string]int{}
	keys := map[string]string{}
	differ := map[string]bool{}
	for _, leaf := range root.Leaves(true) {
		for _, g := range groupFlags(commandFlags(leaf)) {
			if g.title == "" {
				continue
			}
			key := groupKey(g)
			if uses[g.title] == 0 {
				order = append(order, g)
				keys[g.title] = key
			} else if keys[g.title] != key {
				differ[g.title] = true
			}
			uses[g.title]++
		}
	}
	var shared []flagGroup
	for _, g := range order {
		if uses[g.title] > 1 && !differ[g.title] {
			shared = append(shared, g)
		}
	}
	return shared
}

// groupKey is everything a reference writes of a group's flags: equal
// keys render alike.
func groupKey(g flagGroup) string {
	var key []byte
	for _, f := range g.flags {
		key = fmt.Appendf(key, "%s\x00%s\x00%t\x00%q\x00%q\x00%q\x00%t\x00",
			flagSyntax(f, plain, plain), f.Help, f.HasDefault, f.Default, f.Envs, f.Enum, f.Required)
	}
	return string(key)
}

func isShared(shared []flagGroup, g flagGroup) bool {
	return slices.ContainsFunc(shared, func(s flagGroup) bool { return s.title == g.title })
}

func rootOf(node *kong.Node) *kong.Node {
	for node.Parent != nil {
		node = node.Parent
	}
	return node
}
