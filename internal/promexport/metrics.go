package promexport

// Metric is one metric family joinbench exports.
type Metric struct {
	Name   string   // as exposed; a histogram's series add _bucket, _sum and _count
	Type   string   // counter, gauge or histogram
	Labels []string // besides the scraper's own (job, instance)
	Help   string
}

// Label names.
const (
	labelRun      = "run_id"
	labelPhase    = "phase"
	labelEndpoint = "endpoint" // host:port, as in the results files
	labelNode     = "node"     // the server that served the statements, as it names itself
	labelScenario = "scenario"
	labelCode     = "code" // server error number
)

var (
	runLabels      = []string{labelRun}
	endpointLabels = []string{labelRun, labelEndpoint}
	scenarioLabels = []string{labelRun, labelScenario, labelEndpoint, labelNode}
	// The threads running a scenario are known per endpoint, not per node.
	inFlightLabels = []string{labelRun, labelScenario, labelEndpoint}
)

// The exported metrics. Counts cover the measured phase (warmup excluded),
// as the run's summary does; at the end of a run they are the summary's.
var (
	runPhase      = Metric{"joinbench_run_phase", "gauge", []string{labelRun, labelPhase}, "1 for the phase the run is in (starting, warmup, measured, ended), 0 for the others."}
	runThreads    = Metric{"joinbench_run_threads", "gauge", runLabels, "Worker threads of the run, each with its own connection."}
	runElapsed    = Metric{"joinbench_run_elapsed_seconds", "gauge", runLabels, "Time since the measured phase started."}
	runTimeLimit  = Metric{"joinbench_run_time_limit_seconds", "gauge", runLabels, "Planned length of the measured phase (--time); 0 when none."}
	runEventLimit = Metric{"joinbench_run_event_limit", "gauge", runLabels, "Planned events of the measured phase (--events); 0 when none."}
	runProgress   = Metric{"joinbench_run_progress_ratio", "gauge", runLabels, "Fraction of the planned run done, by time or by events, whichever is further (0 to 1)."}
	runEvents     = Metric{"joinbench_run_events_total", "counter", runLabels, "Events (transactions running every enabled scenario COUNT times) completed."}
	runReconnects = Metric{"joinbench_run_reconnects_total", "counter", runLabels, "Connections the workers opened again after losing them."}
	runWriterWait = Metric{"joinbench_run_writer_wait_seconds_total", "counter", runLabels, "Time workers waited for the result writer to catch up (never part of a latency)."}

	endpointUp         = Metric{"joinbench_endpoint_up", "gauge", endpointLabels, "1 while the endpoint's workers can connect to it, 0 when they cannot."}
	endpointThreads    = Metric{"joinbench_endpoint_threads", "gauge", endpointLabels, "Worker threads on the endpoint."}
	endpointInFlight   = Metric{"joinbench_endpoint_in_flight", "gauge", endpointLabels, "Worker threads in an event now (not between events nor waiting for a paced start)."}
	endpointEvents     = Metric{"joinbench_endpoint_events_total", "counter", endpointLabels, "Events completed on the endpoint."}
	endpointExecutions = Metric{"joinbench_endpoint_executions_total", "counter", endpointLabels, "Statements executed on the endpoint, succeeded and failed."}
	endpointErrors     = Metric{"joinbench_endpoint_errors_total", "counter", endpointLabels, "Statements that failed on the endpoint."}
	endpointWriteStall = Metric{"joinbench_endpoint_write_stall_seconds", "gauge", endpointLabels, "Time since a successful write last ended on the endpoint (any successful statement when no scenario writes), from the start of the measured phase at most; rows reach the counter within about 0.2 s, so less is no stall."}

	scenarioExecutions = Metric{"joinbench_scenario_executions_total", "counter", scenarioLabels, "Executions of the scenario's statements, succeeded and failed."}
	scenarioErrors     = Metric{"joinbench_scenario_errors_total", "counter", append(scenarioLabels[:len(scenarioLabels):len(scenarioLabels)], labelCode), "Failed executions of the scenario's statements, by server error number (code)."}
	scenarioRetries    = Metric{"joinbench_scenario_retries_total", "counter", scenarioLabels, "Deadlocks and lock wait timeouts retried (--ignore-errors)."}
	scenarioInFlight   = Metric{"joinbench_scenario_in_flight", "gauge", inFlightLabels, "Worker threads running the scenario's statements now."}
	scenarioLatency    = Metric{"joinbench_scenario_latency_seconds", "histogram", scenarioLabels, "Latency of the scenario's successful executions (from the intended start in a paced run)."}
)

// Metrics are every metric family joinbench exports, in the order of
// docs/metrics.md; the Go runtime's and the process's own metrics (go_*,
// process_*) come besides.
var Metrics = []Metric{
	runPhase, runThreads, runElapsed, runTimeLimit, runEventLimit, runProgress, runEvents, runReconnects, runWriterWait,
	endpointUp, endpointThreads, endpointInFlight, endpointEvents, endpointExecutions, endpointErrors, endpointWriteStall,
	scenarioExecutions, scenarioErrors, scenarioRetries, scenarioInFlight, scenarioLatency,
}

// Family returns the metric a series name belongs to (a histogram's
// _bucket, _sum and _count series included), nil when none.
func Family(series string) *Metric {
	for i, m := range Metrics {
		if series == m.Name {
			return &Metrics[i]
		}
		if m.Type == "histogram" {
			for _, suffix := range []string{"_bucket", "_sum", "_count"} {
				if series == m.Name+suffix {
					return &Metrics[i]
				}
			}
		}
	}
	return nil
}
