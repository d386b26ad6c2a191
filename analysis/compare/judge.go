package compare

// Judge applies the comparison rule to the scenarios of one comparison:
// its options, with the confidence of the intervals over rounds that the
// number of tests the comparison makes sets (simultaneous.go).
type Judge struct {
	opt Options
	// roundsConfidence and overallConfidence are the confidence of each
	// scenario's intervals over rounds and of the overall row's (0 when
	// nothing is judged over rounds).
	roundsConfidence, overallConfidence float64
	// judged is the scenarios judged over rounds, scenarios all those
	// compared.
	judged, scenarios int
}

// NewJudge returns the judge of a comparison of scenarios scenarios (read
// as rounds, or rounds nil) with the options opt (defaults applied).
func NewJudge(opt Options, scenarios int, rounds *Rounds) *Judge {
	j := &Judge{opt: opt, scenarios: scenarios}
	judged, overall := rounds.tests()
	j.judged = judged
	j.roundsConfidence, j.overallConfidence = simultaneousConfidence(opt.Confidence, judged, overall)
	return j
}

// Describe puts into c what the judge judges by: the sides' rounds, the
// simultaneous confidences, the method and the rule.
func (j *Judge) Describe(c *Comparison, rounds *Rounds) {
	if rounds != nil {
		c.Base.Rounds, c.Candidate.Rounds = len(rounds.Base), len(rounds.Candidate)
	}
	c.RoundsConfidence, c.OverallConfidence = j.roundsConfidence, j.overallConfidence
	c.Method, c.Rule = j.methodText()
}

// Finish judges the comparison as a whole once its scenarios are in: the
// overall row over rounds, the notes on what limits the verdicts (cutBase
// and cutCand are the statements each side had cut at the end), and
// whether it passes.
func (j *Judge) Finish(c *Comparison, rounds *Rounds, cutBase, cutCand int64) {
	c.Overall = j.overall(rounds, c.Scenarios)
	c.Notes = append(j.verdictNotes(c), cutNote(cutBase, cutCand)...)
	c.Notes = append(c.Notes, workNote(c)...)
	c.Failures = c.failures()
	c.Pass = len(c.Failures) == 0
}
