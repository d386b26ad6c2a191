package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"

	"github.com/joinbench/joinbench/analysis/compare"
	"github.com/joinbench/joinbench/internal/server"
	"github.com/joinbench/joinbench/internal/slowproxy"
	"github.com/joinbench/joinbench/internal/usage"
	"github.com/joinbench/joinbench/replay/ab"
)

// slowCandidate is --candidate-slow: both sides' connections go through a
// proxy in this process (the same hop for each), and the candidate's
// holds every answer back by the given share of its server's time. A
// slowdown whose size is known on every statement is how a user finds
// out what ab catches on their own setup.
type slowCandidate struct {
	extra float64

	mu      sync.Mutex
	proxies [2][]*slowproxy.Proxy // every run's, per side
}

// parseSlowPercent reads --candidate-slow: PERCENT, with or without the
// % sign, from 0 (the proxies alone: a control) to 1000.
func parseSlowPercent(v string) (*slowCandidate, error) {
	t := strings.TrimSpace(v)
	pct, err := strconv.ParseFloat(strings.TrimSuffix(t, "%"), 64)
	if err != nil || pct < 0 || pct > 1000 {
		return nil, usage.Errorf("--candidate-slow: %q is not a percentage from 0 to 1000, e.g. 20%%", v)
	}
	return &slowCandidate{extra: pct / 100}, nil
}

// route puts a proxy in front of each endpoint of side's target; the
// proxies stop when the target closes. Actions and status reads go to
// the servers directly (Target.Nodes, the endpoints' processes).
func (s *slowCandidate) route(side ab.Side) func(*server.Target) error {
	extra := 0.0
	if side == ab.Candidate {
		extra = s.extra
	}
	return func(tgt *server.Target) error {
		for i, ep := range tgt.Endpoints {
			network, addr, err := ep.Address()
			if err != nil {
				return err
			}
			p, err := slowproxy.Start(network, addr, extra)
			if err != nil {
				return fmt.Errorf("--candidate-slow: a proxy in front of %s: %w", ep.Name, err)
			}
			tgt.OnClose(p.Close)
			s.mu.Lock()
			s.proxies[side] = append(s.proxies[side], p)
			s.mu.Unlock()
			if tgt.Endpoints[i], err = ep.Via(p.Addr()); err != nil {
				return err
			}
		}
		return nil
	}
}

// share is the share each candidate answer is held back by; 0 for nil
// (no --candidate-slow).
func (s *slowCandidate) share() float64 {
	if s == nil {
		return 0
	}
	return s.extra
}

// label is the candidate's label with its slowdown.
func (s *slowCandidate) label(server string) string {
	return fmt.Sprintf("%s, held back %s", server, pctLabel(s.extra))
}

// report says the slowdown the candidate's proxies gave, measured: a
// timer fires late, never early, so short statements get a little more
// than asked.
func (s *slowCandidate) report(w io.Writer) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var all slowproxy.Stats
	for _, p := range s.proxies[ab.Candidate] {
		st := p.Stats()
		all.Answers += st.Answers
		all.Served += st.Served
		all.Held += st.Held
	}
	if s.extra == 0 {
		fmt.Fprintf(w, "ab: --candidate-slow 0%%: both sides went through a proxy that held nothing back (a control)\n")
		return
	}
	fmt.Fprintf(w, "ab: --candidate-slow %s: the candidate's answers were held back %.1f%% of its server's time, over %d answers; the base's went through the same kind of proxy, held back by nothing\n",
		pctLabel(s.extra), 100*all.Realised(), all.Answers)
}

// caught says whether the comparison called the candidate's known
// slowdown: the overall row first, then how many scenarios did.
func (s *slowCandidate) caught(w io.Writer, c *compare.Comparison) {
	if s.extra == 0 {
		return
	}
	called := c.Counts[compare.Regression]
	what := "no overall row (a single round a side)"
	if o := c.Overall; o != nil && o.Median != nil {
		verdict := "missed it"
		if o.Verdict == compare.Regression {
			verdict = "caught it"
		}
		what = fmt.Sprintf("the overall row %s (%s: %.2f [%.2f, %.2f])", verdict, o.Verdict, o.Median.Ratio, o.Median.Low, o.Median.High)
	}
	fmt.Fprintf(w, "ab: --candidate-slow %s: %s; %d of %d scenario(s) called a regression (each line's \"no change <N%%\" says how far it could see)\n",
		pctLabel(s.extra), what, called, len(c.Scenarios))
}

func pctLabel(f float64) string { return strconv.FormatFloat(100*f, 'f', -1, 64) + "%" }
