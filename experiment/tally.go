package experiment

import (
	"fmt"
)

// Tally is how much of what a lesson planned it judged: slow-node's
// throttled windows, hot-vs-uniform's pairs of runs, restore's restores.
// Every page says it, and a verdict drawn from part of the plan never
// reads as a full one: the lessons fill Judged, Run the rest, and
// Page.settle applies the one rule for all of them.
type Tally struct {
	// Unit names what is counted, in the plural: "windows".
	Unit    string `json:"unit"`
	Planned int    `json:"planned"`
	Judged  int    `json:"judged"`
	// Interrupted: the lesson was stopped (Ctrl-C, SIGTERM) before its
	// plan was carried out; what it measured until then is on the page.
	Interrupted bool `json:"interrupted,omitempty"`
}

// String is the page's line: "windows judged: 2 of 5 (interrupted)".
func (t Tally) String() string {
	s := fmt.Sprintf("%s judged: %d of %d", t.Unit, t.Judged, t.Planned)
	if t.Interrupted {
		s += " (interrupted)"
	}
	return s
}

// Partial says whether fewer were judged than planned.
func (t Tally) Partial() bool { return t.Judged < t.Planned }

// settle applies the tally to the page's verdict, the lesson's own drawn
// from the judged part alone:
//
//   - none judged: no verdict. The page says why: interrupted before the
//     first ended, or the lesson's own reason.
//   - interrupted part-way: no verdict either, a partial run's figures
//     are not the lesson's answer; what the judged part shows is kept as a
//     note, said to be from a partial run.
//   - some not judged in a run that ended (windows without traffic): the
//     verdict stands, saying how few it is drawn from.
func (p *Page) settle(t Tally) {
	p.Tally = t
	if !t.Partial() {
		return
	}
	switch {
	case t.Judged == 0 && t.Interrupted:
		p.Verdict = fmt.Sprintf("none: interrupted before any of the %d %s was judged", t.Planned, t.Unit)
	case t.Judged == 0:
		p.Verdict = fmt.Sprintf("none: no %s of the %d planned could be judged (%s)", t.Unit, t.Planned, p.Verdict)
	case t.Interrupted:
		partial := p.Verdict
		p.Verdict = fmt.Sprintf("none: interrupted after %d of %d %s; run the lesson again for a verdict", t.Judged, t.Planned, t.Unit)
		p.Notes = append([]string{fmt.Sprintf("from a partial run (%d of %d %s), not a verdict: %s", t.Judged, t.Planned, t.Unit, partial)}, p.Notes...)
	default:
		p.Verdict = fmt.Sprintf("from %d of %d %s only: %s", t.Judged, t.Planned, t.Unit, p.Verdict)
	}
}

// Err is the command's failure when nothing was judged: the page is
// written, and the command must not exit 0 with no answer.
func (p *Page) Err() error {
	if p.Tally.Planned > 0 && p.Tally.Judged == 0 {
		return fmt.Errorf("experiment %s: none of the %d %s was judged; the page says why", p.Lesson, p.Tally.Planned, p.Tally.Unit)
	}
	return nil
}
