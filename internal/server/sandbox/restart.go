package sandbox

import (
	"context"
	"fmt"
	"time"
)

// RestartStartTimeout bounds starting a restarted server again (a cluster
// node: until it has rejoined). The end of a run does not cut it short: a
// server left half started would be worse than a late end of the fault.
const RestartStartTimeout = 5 * time.Minute

// RestartNode stops node n of the running cluster cleanly, waits down,
// starts it again on its option file and waits until it is Synced: it
// rejoins the others, by incremental state transfer when the donor still
// holds what it missed. The node's new process id is saved in the
// cluster's state, so that sandbox stop finds it. It is a fault a run
// injects (joinbench run --action '...: restart 10s').
func (c *Cluster) RestartNode(ctx context.Context, n *Node, down time.Duration) error {
	// Not killed when ctx ends: a clean stop is the fault asked for.
	if err := n.Stop(context.WithoutCancel(ctx)); err != nil {
		return fmt.Errorf("stop %s: %w", n.Name, err)
	}
	select {
	case <-time.After(down):
	case <-ctx.Done():
	}
	// A node that bootstrapped the cluster must join it now, not found a
	// new one; the start position is only for a node recovered after a
	// crash.
	n.Args = []string{"--defaults-file=" + n.OptionFile, "--datadir=" + n.DataDir}
	// Not bound to ctx: a node left half started would be worse than a
	// late end of the fault.
	start, cancel := context.WithTimeout(context.WithoutCancel(ctx), RestartStartTimeout)
	defer cancel()
	if err := n.launch(start, true); err != nil {
		return fmt.Errorf("start %s again: %w", n.Name, err)
	}
	if err := c.saveState(); err != nil {
		return fmt.Errorf("sandbox %s: save state: %w", c.Name, err)
	}
	if err := n.waitSynced(start); err != nil {
		return fmt.Errorf("%s did not rejoin: %w", n.Name, err)
	}
	return nil
}

// Restart stops the named sandbox server cleanly, waits down and starts it
// again with the options it had, saving its new process id.
func (s *Server) Restart(ctx context.Context, down time.Duration) error {
	if err := s.Stop(context.WithoutCancel(ctx)); err != nil {
		return fmt.Errorf("stop: %w", err)
	}
	select {
	case <-time.After(down):
	case <-ctx.Done():
	}
	start, cancel := context.WithTimeout(context.WithoutCancel(ctx), RestartStartTimeout)
	defer cancel()
	if err := s.launch(start, true); err != nil {
		return fmt.Errorf("start again: %w", err)
	}
	if s.Name != "" {
		if err := s.saveState(); err != nil {
			return fmt.Errorf("sandbox %s: save state: %w", s.Name, err)
		}
	}
	return nil
}
