//go:build perflayers

package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// lastClientRoute is the route of the last access-log record of a request
// from the test's client (the captured answer's own records come from
// httptest's 192.0.2.1).
func lastClientRoute(t *testing.T, log string) string {
	t.Helper()
	route := ""
	for _, line := range strings.Split(strings.TrimSpace(log), "\n") {
		var rec struct {
			Msg      string `json:"msg"`
			Route    string `json:"route"`
			ClientIP string `json:"client_ip"`
		}
		if json.Unmarshal([]byte(line), &rec) == nil && rec.Msg == "request" && rec.ClientIP == "127.0.0.1" {
			route = rec.Route
		}
	}
	return route
}

// TestReview_PerfLayersMwLogsTheProgramsRecord: the mw variant is meant to
// be the program's own stack with its access log; the record it writes for
// the cached lookup must be the one the program writes (same route), or the
// log's work measured is not the program's (the program's record allocates
// a request to name the inner route; mw's names none and logs "(none)").
func TestReview_PerfLayersMwLogsTheProgramsRecord(t *testing.T) {
	brreg := fakeBrreg(t, nil, nil).URL
	const path = "/v1/NO/company/923609016"

	real := startProgram(t, programConfig{brreg: brreg})
	real.get(t, path)
	if r := real.get(t, path); r.status != 200 {
		t.Fatalf("real program: status %d", r.status)
	}
	want := lastClientRoute(t, real.log.String())

	t.Setenv("REGISTRY_PERF_LAYER", "mw")
	mw := startProgram(t, programConfig{brreg: brreg})
	if r := mw.get(t, path); r.status != 200 {
		t.Fatalf("mw: status %d", r.status)
	}
	got := lastClientRoute(t, mw.log.String())
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("access-log route of the cached lookup, program (-) vs mw (+):\n%s", diff)
	}
}
