package replay

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// A Lockstep makes two runs, one per server, take turns statement by
// statement: worker i of one run and worker i of the other share a turn,
// so that at any moment only one of the two runs a statement, and each
// statement runs on one side right after it ran on the other, which side
// first drawn at random for each. Both servers are then measured within
// milliseconds of each other, under the same state of the machine: on a
// shared machine its speed wanders over seconds (whole runs drift by up
// to about 30%), which rounds of seconds each cannot cancel and
// statement-by-statement turns do (bench/README.md, "Verdicts on a noisy
// machine").
//
// The two runs must have the same number of threads and meet before their
// warm-up (meet), so that their phases start and end together. A side
// whose worker has finished no longer holds the other up: it runs alone.
//
// Turns are taken by the scenario statements: BEGIN and COMMIT, connecting
// and EXPLAIN run outside them. Turns count statements: when one side
// alone cuts an event short (a lost connection) or skips a scenario it
// disabled, the two go on pairing statements that differ, while their
// time slices, which the comparison pairs, still match.
type Lockstep struct {
	pairs []*lockPair

	// The meeting of the two runs before they start.
	mu      sync.Mutex
	arrived [2]bool
	met     chan struct{} // closed when both have arrived
	start   time.Time     // set before met is closed
}

// lockPair is the turn of worker i of each side.
//
// Which side runs a statement first is drawn at random, statement by
// statement: the second to run it finds what the first left (caches of
// the machine, pages of the server when both sides are one server), so a
// fixed order would bias a scenario towards one side (bench/README.md,
// "Verdicts on a noisy machine"); drawn at random, the order only adds
// noise, which the intervals hold.
type lockPair struct {
	turn  [2]chan struct{} // the one token, in the channel of the side whose turn it is
	gone  [2]chan struct{} // closed when that side's worker has finished
	leave [2]sync.Once
	held  [2]bool // each touched by its side's worker only
	// Touched by the token's holder only: the statements the pair ran,
	// and the state of the generator that draws who goes first.
	steps uint64
	rng   uint64
}

// first draws the side that runs the pair's next statement first.
func (p *lockPair) first() int {
	// splitmix64: a generator in one word, reproducible from the seed.
	p.rng += 0x9e3779b97f4a7c15
	z := p.rng
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return int((z ^ z>>31) & 1)
}

// NewLockstep returns the lockstep of two runs of threads workers each.
func NewLockstep(threads int) *Lockstep {
	l := &Lockstep{pairs: make([]*lockPair, threads), met: make(chan struct{})}
	for i := range l.pairs {
		p := &lockPair{rng: uint64(i) + 1}
		for s := range 2 {
			p.turn[s] = make(chan struct{}, 1)
			p.gone[s] = make(chan struct{})
		}
		p.turn[p.first()] <- struct{}{}
		l.pairs[i] = p
	}
	return l
}

// Side is the view of one of the two runs, for Config.Lockstep: side 0
// (the base) or 1.
func (l *Lockstep) Side(side int) *LockstepSide { return &LockstepSide{l: l, side: side} }

// LockstepSide is one run's part in a Lockstep.
type LockstepSide struct {
	l    *Lockstep
	side int
}

// lockstepMeetMargin is how long after both runs have met they start: the
// second to arrive must get from the meeting to its own wait.
const lockstepMeetMargin = 50 * time.Millisecond

// meet waits for the other run to arrive and returns when both start. A
// run that cannot start (its server unreachable) never arrives: the
// caller cancels ctx.
func (s *LockstepSide) meet(ctx context.Context) (time.Time, error) {
	l := s.l
	l.mu.Lock()
	if l.arrived[s.side] {
		l.mu.Unlock()
		return time.Time{}, fmt.Errorf("replay: side %d of a lockstep started twice (a lockstep serves one run per side)", s.side)
	}
	l.arrived[s.side] = true
	if l.arrived[0] && l.arrived[1] {
		l.start = time.Now().Add(lockstepMeetMargin)
		close(l.met)
	}
	l.mu.Unlock()
	select {
	case <-l.met:
		return l.start, nil
	case <-ctx.Done():
		return time.Time{}, fmt.Errorf("waiting for the other server's run to start: %w", context.Cause(ctx))
	}
}

// Met is closed when the two runs have met; Start then says when they
// start (their warm-up, if any, then their measured phase).
func (l *Lockstep) Met() <-chan struct{} { return l.met }

// Start is when the two runs start, once Met is closed.
func (l *Lockstep) Start() time.Time {
	<-l.met
	return l.start
}

// threads is the number of workers of each side.
func (s *LockstepSide) threads() int { return len(s.l.pairs) }

// acquire waits for worker id's turn; false when ctx ended first.
func (s *LockstepSide) acquire(ctx context.Context, id int) bool {
	p := s.l.pairs[id]
	if p.held[s.side] {
		return true
	}
	select {
	case <-p.turn[s.side]:
		p.held[s.side] = true
		return true
	case <-p.gone[1-s.side]:
		return true // the other side has finished: run alone
	case <-ctx.Done():
		return false
	}
}

// release ends worker id's statement: the turn passes to the other side
// when it has yet to run this statement, else to the side drawn to run
// the next one first.
func (s *LockstepSide) release(id int) {
	p := s.l.pairs[id]
	if !p.held[s.side] {
		return // alone
	}
	p.steps++
	next := 1 - s.side
	if p.steps%2 == 0 {
		next = p.first()
	}
	if next == s.side {
		return
	}
	select {
	case <-p.gone[next]:
		return // keep the token: nobody will take it
	default:
	}
	p.held[s.side] = false
	p.turn[next] <- struct{}{} // never blocks: there is one token
}

// leave says worker id has finished its run: the other side's worker no
// longer waits for it.
func (s *LockstepSide) leave(id int) {
	p := s.l.pairs[id]
	p.leave[s.side].Do(func() {
		if p.held[s.side] {
			p.held[s.side] = false
			select {
			case p.turn[1-s.side] <- struct{}{}:
			default:
			}
		}
		close(p.gone[s.side])
	})
}
