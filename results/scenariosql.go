package results

// MaxScenarioSQL bounds the statement texts run.json records
// (Run.ScenarioSQL): the last run.json of a run must fit in the space set
// aside for it on a disk that fills up (reserveSize), whatever the corpus.
const MaxScenarioSQL = 32 << 10

// RecordScenarioSQL sets ScenarioSQL to the texts of the scenarios named,
// taken in the order given while they fit in MaxScenarioSQL bytes
// together; a scenario that does not fit is left out whole, and so are
// the rest.
func (r *Run) RecordScenarioSQL(names, texts []string) {
	size := 0
	for i, n := range names {
		if i >= len(texts) || size+len(texts[i]) > MaxScenarioSQL {
			return
		}
		if r.ScenarioSQL == nil {
			r.ScenarioSQL = map[string]string{}
		}
		r.ScenarioSQL[n] = texts[i]
		size += len(texts[i])
	}
}
