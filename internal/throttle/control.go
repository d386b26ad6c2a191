package throttle

import "math"

// controller adjusts a limit until the rate measured under it is the
// target. A cap does not act on a rate one for one: a process that waits
// for each operation before the next (a commit waiting for its fsync)
// loses the cap's delay on top of its own, and does 1/(latency + 1/cap)
// per second, far less than the cap; one with many operations in flight
// does the cap. Every second the controller reads the process's own
// latency off what it did under the current cap, latency = 1/rate -
// 1/cap (0 for the second kind), and sets the cap that gives the target
// with that latency, damped by gain against noise. The limit is the
// target times scale, every figure alike, so that the mix of the
// process's work stays as it was; the figure that needs the tightest cap
// decides. A process that does less than its target (its own demand fell)
// gets a looser cap, up to maxScale times the target, never none.
type controller struct {
	target Usage
	scale  float64
}

// A scale tightens fast and loosens slowly: a second in which the process
// did little (its disk slower for a moment, its clients waiting) must not
// let it burst the next.
const (
	gain      = 0.7
	minScale  = 0.25
	maxScale  = 16.0
	maxTight  = 4   // a scale falls by at most this factor a second
	maxLoosen = 1.5 // and rises by at most this one
)

func newController(target Usage) *controller { return &controller{target: target, scale: 1} }

// limit is the limit to set now.
func (c *controller) limit() Usage { return c.target.Scale(c.scale) }

// observe takes the rate measured under the current limit and adjusts it.
func (c *controller) observe(r Resource, rate Usage) {
	got, want, lim := rate.figures(r), c.target.figures(r), c.limit().figures(r)
	proposed := float64(maxScale)
	for i := range want {
		if want[i] <= 0 || got[i] <= 0 {
			continue
		}
		latency := math.Max(0, 1/got[i]-1/lim[i])
		if inv := 1/want[i] - latency; inv > 0 {
			proposed = math.Min(proposed, 1/inv/want[i])
		}
	}
	next := math.Exp((1-gain)*math.Log(c.scale) + gain*math.Log(proposed))
	next = math.Min(c.scale*maxLoosen, math.Max(c.scale/maxTight, next))
	c.scale = math.Min(maxScale, math.Max(minScale, next))
}
