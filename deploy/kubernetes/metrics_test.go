package kubernetes

import (
	"net"
	"strconv"
	"strings"
	"testing"

	batchv1 "k8s.io/api/batch/v1"
)

// TestRunJobIsScraped: the run's pods serve live metrics (--metrics-addr)
// on the port and path their scrape annotations name, and linger for a
// last scrape.
func TestRunJobIsScraped(t *testing.T) {
	var j batchv1.Job
	decodeStrict(t, "run-job.yaml", &j)
	pod := j.Spec.Template
	a := pod.Annotations
	if a["prometheus.io/scrape"] != "true" || a["prometheus.io/path"] != "/metrics" {
		t.Errorf("run-job.yaml: pod annotations %v: want prometheus.io/scrape \"true\" and prometheus.io/path /metrics", a)
	}
	c := pod.Spec.Containers[0]
	var addr string
	linger := false
	for _, arg := range c.Args {
		if v, ok := strings.CutPrefix(arg, "--metrics-addr="); ok {
			addr = v
		}
		linger = linger || strings.HasPrefix(arg, "--metrics-linger=")
	}
	_, port, err := net.SplitHostPort(addr)
	if err != nil || port != a["prometheus.io/port"] {
		t.Errorf("run-job.yaml: --metrics-addr=%s, prometheus.io/port %q: want the same port", addr, a["prometheus.io/port"])
	}
	if !linger {
		t.Errorf("run-job.yaml: without --metrics-linger a pod ends before a last scrape reads its final values")
	}
	declared := false
	for _, p := range c.Ports {
		declared = declared || strconv.Itoa(int(p.ContainerPort)) == port
	}
	if !declared {
		t.Errorf("run-job.yaml: the container does not declare the metrics port %s", port)
	}
}
