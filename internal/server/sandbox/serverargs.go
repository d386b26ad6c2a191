package sandbox

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/joinbench/joinbench/internal/ledger"
	"github.com/joinbench/joinbench/internal/usage"
)

// RestartWith restarts s, the single server of the sandbox, with extra
// added after the options it runs with (a later option wins), for one
// command: a setting the server reads only when it starts
// (innodb_flush_method). The options it ran with are noted in the
// ledger first, so that the next command undoes the change of one that
// was killed (Repair). restore restarts it with them again. why says
// what for, in the ledger and in messages. A cluster's nodes read their
// options from their my.cnf: refused, naming --node-option.
func (n *Named) RestartWith(ctx context.Context, s *Server, extra []string, why string) (restore func(context.Context) error, err error) {
	if n.Cluster != nil {
		return nil, usage.Errorf("sandbox %s is a Galera cluster: start its nodes with %s in their my.cnf (joinbench sandbox start --galera N --node-option node1:%s, one per node)",
			n.Name, strings.Join(extra, " "), strings.TrimPrefix(firstOr(extra), "--"))
	}
	old := slices.Clone(s.Args)
	b, err := json.Marshal(old)
	if err != nil {
		return nil, err
	}
	done, err := n.Ledger().Add(ledger.Entry{Kind: ChangeServerArgs, Node: s.Name,
		What: fmt.Sprintf("%s restarted with %s %s", s.Name, strings.Join(extra, " "), why),
		Undo: map[string]string{"args": string(b)}})
	if err != nil {
		return nil, err
	}
	s.Args = append(slices.Clone(old), extra...)
	if err := n.Restart(ctx, s, 0); err != nil {
		// Started again as it was (a server the option kept from starting
		// too), when it can be: the entry stays for the next command when
		// it cannot.
		s.Args = old
		back := n.Restart(context.WithoutCancel(ctx), s, 0)
		if back == nil {
			back = done()
		}
		return nil, errors.Join(fmt.Errorf("restart %s with %s: %w", s.Name, strings.Join(extra, " "), err), back)
	}
	return func(ctx context.Context) error {
		if err := n.runWith(ctx, s, old); err != nil {
			return fmt.Errorf("restart %s with its options before: %w", s.Name, err)
		}
		return done()
	}, nil
}

func firstOr(s []string) string {
	if len(s) == 0 {
		return ""
	}
	return s[0]
}

// runWith gives s the options args: restarted with them when it runs,
// else noted in its state for its next start.
func (n *Named) runWith(ctx context.Context, s *Server, args []string) error {
	if slices.Equal(s.Args, args) && s.Running() {
		return nil
	}
	s.Args = slices.Clone(args)
	if !s.Running() {
		return s.saveState()
	}
	return n.Restart(ctx, s, 0)
}

// undoServerArgs gives the server an entry names the options it ran with
// before (ChangeServerArgs).
func (n *Named) undoServerArgs(ctx context.Context, e ledger.Entry) error {
	var args []string
	if err := json.Unmarshal([]byte(e.Undo["args"]), &args); err != nil || len(args) == 0 {
		return fmt.Errorf("%s: the options noted are unreadable (%q): run 'joinbench sandbox stop --name %s' and start it again", e.What, e.Undo["args"], n.Name)
	}
	s := n.server(e.Node)
	if s == nil {
		return fmt.Errorf("%s: sandbox %s has no server %s", e.What, n.Name, e.Node)
	}
	return n.runWith(ctx, s, args)
}
