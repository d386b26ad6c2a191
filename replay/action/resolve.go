package action

import (
	"strconv"
	"strings"

	"github.com/go-sql-driver/mysql"

	"github.com/joinbench/joinbench/internal/ledger"
	"github.com/joinbench/joinbench/internal/server"
	"github.com/joinbench/joinbench/internal/usage"
)

// Action is a Spec resolved against the run's endpoints: what runs during
// the measured phase.
type Action struct {
	Spec
	Number  int32    // from 1, in the order given
	Targets []Target // one, or every endpoint in turn (a rolling change)
}

// Target is an endpoint an action runs on.
type Target struct {
	Endpoint int    // index in the run's endpoints (Env.Endpoints)
	Node     string // the sandbox node's name, if any
	// Process is the sandbox server behind the endpoint (Kind.Process
	// kinds); Conn its connection settings (exec).
	Process server.Process
	Conn    *mysql.Config
	// Ledger is where a change an action makes through SQL is noted
	// first: the sandbox's folder, or a table on a server reached by its
	// address (server.Endpoint.Ledger).
	Ledger ledger.Ledger
}

// Resolve resolves each spec's target against the endpoints: a sandbox
// node name (node2), a number from 1 in endpoint order, a host:port (the
// endpoint's name), or "all". An unknown endpoint, a fault on a server
// joinbench does not control, or one this machine cannot inject (slow
// without a cgroup controller for it) is a usage error.
func Resolve(specs []Spec, eps []server.Endpoint) ([]Action, error) {
	var out []Action
	for i, sp := range specs {
		a := Action{Spec: sp, Number: int32(i + 1)}
		idx, err := targetIndexes(sp, eps)
		if err != nil {
			return nil, err
		}
		for _, j := range idx {
			t := Target{Endpoint: j, Node: eps[j].Node, Process: eps[j].Process, Ledger: eps[j].Ledger()}
			if sp.Kind.Process && t.Process == nil {
				return nil, usage.Errorf("--action %q: %s needs a server joinbench controls: a named sandbox or a node of a cluster sandbox (--sandbox NAME)", sp.Text, sp.Kind.Name)
			}
			if c, ok := sp.Job.(checker); ok && t.Process != nil {
				if err := c.Check(t); err != nil {
					return nil, usage.Errorf("--action %q: %v", sp.Text, err)
				}
			}
			cfg, err := eps[j].Config()
			if err != nil {
				return nil, usage.Wrap(err)
			}
			t.Conn = cfg
			a.Targets = append(a.Targets, t)
		}
		out = append(out, a)
	}
	return out, nil
}

// targetIndexes returns the indexes of the endpoints sp runs on.
func targetIndexes(sp Spec, eps []server.Endpoint) ([]int, error) {
	if sp.Target == AllEndpoints {
		idx := make([]int, len(eps))
		for j := range eps {
			idx[j] = j
		}
		return idx, nil
	}
	if j := findEndpoint(sp.Target, eps); j >= 0 {
		return []int{j}, nil
	}
	var names []string
	for k, ep := range eps {
		n := strconv.Itoa(k+1) + " " + ep.Name
		if ep.Node != "" {
			n = ep.Node + " (" + n + ")"
		}
		names = append(names, n)
	}
	return nil, usage.Errorf("--action %q: no endpoint %q; the endpoints are %s", sp.Text, sp.Target, strings.Join(names, ", "))
}

func findEndpoint(target string, eps []server.Endpoint) int {
	for j, ep := range eps {
		if ep.Node != "" && strings.EqualFold(ep.Node, target) {
			return j
		}
	}
	for j, ep := range eps {
		if ep.Name == target {
			return j
		}
	}
	if n, err := strconv.Atoi(target); err == nil && n >= 1 && n <= len(eps) {
		return n - 1
	}
	return -1
}
