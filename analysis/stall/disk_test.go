package stall

import (
	"testing"
	"time"
)

// The peak extra disk of an action is the largest size in its window
// over the last size before it; an endpoint not sampled reads "-".
func TestAddDiskCost(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	at := func(s int) time.Time { return t0.Add(time.Duration(s) * time.Second) }
	costs := []Cost{
		{Action: 1, from: at(10), to: at(20), Endpoints: []EndpointCost{{Endpoint: "a"}, {Endpoint: "b"}}},
		{Action: 2, from: at(20), to: at(30), Endpoints: []EndpointCost{{Endpoint: "a"}}},
	}
	disk := map[string][]DiskSample{"a": {
		{at(9), 100}, {at(10), 110}, {at(12), 150}, {at(15), 210}, {at(19), 120},
		{at(22), 115}, {at(25), 90}, {at(31), 500},
	}}
	AddDiskCost(costs, disk)
	if got := costs[0].Endpoints[0].PeakExtraDiskBytes; got == nil || *got != 100 {
		t.Errorf("action 1 on a: %v, want 100 (210 over 110)", got)
	}
	if got := costs[0].Endpoints[1]; got.PeakExtraDiskBytes != nil || got.DiskText() != "-" {
		t.Errorf("action 1 on b, not sampled: %v", got.PeakExtraDiskBytes)
	}
	if got := costs[1].Endpoints[0].PeakExtraDiskBytes; got == nil || *got != 0 {
		t.Errorf("action 2 on a: %v, want 0 (it shrank)", got)
	}
	if got := costs[0].Endpoints[0].DiskText(); got != "0.0" {
		t.Errorf("DiskText %q", got)
	}
}
