package restserver_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jarcoal/httpmock"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/countries"
	"github.com/companyregistry/registry/internal/cputime"
	"github.com/companyregistry/registry/internal/fakeclock"
	"github.com/companyregistry/registry/restserver"
)

// orgNrs returns n distinct valid Norwegian organisation numbers (MOD11).
func orgNrs(n int) []string {
	weights := [8]int{3, 2, 7, 6, 5, 4, 3, 2}
	var out []string
	for base := 92000000; len(out) < n; base++ {
		s := strconv.Itoa(base)
		sum := 0
		for i := range 8 {
			sum += int(s[i]-'0') * weights[i]
		}
		check := 11 - sum%11
		if check == 11 {
			check = 0
		}
		if check == 10 {
			continue
		}
		out = append(out, s+strconv.Itoa(check))
	}
	return out
}

// sameUnit answers GET /enheter/{orgnr} with the Equinor recording under
// the requested number, and counts the requests.
func sameUnit(body string, calls *atomic.Int64) httpmock.Responder {
	return func(r *http.Request) (*http.Response, error) {
		calls.Add(1)
		id := path.Base(r.URL.Path)
		res := httpmock.NewStringResponse(200, strings.Replace(body, `"923609016"`, `"`+id+`"`, 1))
		res.Header.Set("Content-Type", "application/json")
		return res, nil
	}
}

// patientRegistry is newE2ERegistry with an upstream timeout long enough
// that a loaded machine never times an attempt out and retries it, so that
// upstream requests can be counted exactly.
func patientRegistry(t testing.TB, mt *httpmock.MockTransport, clock *fakeclock.Clock) *registry.Registry {
	t.Helper()
	cs, err := countries.All(countries.Config{BrregBaseURL: brregBase, HTTPClient: &http.Client{Transport: mt}})
	if err != nil {
		t.Fatal(err)
	}
	reg, err := registry.New(cs, registry.WithClock(clock.Now), registry.WithUpstreamTimeout(10*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	return reg
}

// warmBatch returns a Registry over the real Norwegian module whose cache
// holds n distinct units (each answered with the Equinor recording), the
// identifiers, and the number of upstream requests made.
func warmBatch(b *testing.B, n int) (*registry.Registry, []string, *atomic.Int64) {
	b.Helper()
	mt := httpmock.NewMockTransport()
	var calls atomic.Int64
	body := upstreamFixture(b, "brreg_enhet_923609016.json")
	mt.RegisterRegexpResponder("GET", regexp.MustCompile(`/enheter/\d{9}$`), sameUnit(body, &calls))
	reg := patientRegistry(b, mt, newFakeClock())
	ids := orgNrs(n)
	items, err := reg.DeadlinesBatch(b.Context(), "NO", ids, registry.NewDate(2026, 1, 15))
	if err != nil {
		b.Fatal(err)
	}
	for _, it := range items {
		if it.Err != nil {
			b.Fatalf("%s: %v", it.ID, it.Err)
		}
	}
	if got := calls.Load(); got != int64(n) {
		b.Fatalf("cold batch: %d upstream requests, want %d", got, n)
	}
	return reg, ids, &calls
}

// perID reports the wall time and the process CPU time (every goroutine,
// the loopback client's included) per identifier since cpu0.
func perID(b *testing.B, cpu0 time.Duration, n int) {
	per := float64(b.N * n)
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/per, "ns/id")
	if cpu := cputime.Process() - cpu0; cpu > 0 {
		b.ReportMetric(float64(cpu.Nanoseconds())/per, "cpu-ns/id")
	}
}

// BenchmarkDeadlinesBatchWarm500 measures a warm batch of 500 distinct
// Norwegian identifiers (every report cached): the library call, the REST
// route in process and over loopback HTTP, and, for scale, the same 500
// answers as 500 single GET .../deadlines requests in process.
func BenchmarkDeadlinesBatchWarm500(b *testing.B) {
	const n = restserver.MaxBatchIDs
	reg, ids, calls := warmBatch(b, n)
	today := registry.NewDate(2026, 1, 15)
	h, err := restserver.New(reg, restserver.WithRateLimit(0))
	if err != nil {
		b.Fatal(err)
	}
	body, err := json.Marshal(map[string]any{"ids": ids, "today": today.String()})
	if err != nil {
		b.Fatal(err)
	}
	const route = "/v1/NO/deadlines:batch"
	before := calls.Load()
	defer func() {
		if got := calls.Load() - before; got != 0 {
			b.Errorf("warm batches made %d upstream requests", got)
		}
	}()

	b.Run("library", func(b *testing.B) {
		b.ReportAllocs()
		cpu0 := cputime.Process()
		for b.Loop() {
			if _, err := reg.DeadlinesBatch(b.Context(), "NO", ids, today); err != nil {
				b.Fatal(err)
			}
		}
		perID(b, cpu0, n)
	})
	b.Run("rest-inprocess", func(b *testing.B) {
		b.ReportAllocs()
		cpu0 := cputime.Process()
		size := 0
		for b.Loop() {
			w := httptest.NewRecorder()
			h.ServeHTTP(w, httptest.NewRequest("POST", route, bytes.NewReader(body)))
			if w.Code != 200 {
				b.Fatalf("%d %s", w.Code, w.Body)
			}
			size = w.Body.Len()
		}
		perID(b, cpu0, n)
		b.ReportMetric(float64(size), "resp-bytes")
	})
	b.Run("rest-loopback", func(b *testing.B) {
		srv := httptest.NewServer(h)
		defer srv.Close()
		client := srv.Client()
		b.ReportAllocs()
		cpu0 := cputime.Process()
		for b.Loop() {
			res, err := client.Post(srv.URL+route, "application/json", bytes.NewReader(body))
			if err != nil {
				b.Fatal(err)
			}
			_, _ = io.Copy(io.Discard, res.Body)
			res.Body.Close()
			if res.StatusCode != 200 {
				b.Fatalf("status %d", res.StatusCode)
			}
		}
		perID(b, cpu0, n)
	})
	b.Run("500-single-gets-inprocess", func(b *testing.B) {
		b.ReportAllocs()
		cpu0 := cputime.Process()
		for b.Loop() {
			for _, id := range ids {
				w := httptest.NewRecorder()
				h.ServeHTTP(w, httptest.NewRequest("GET", fmt.Sprintf("/v1/NO/company/%s/deadlines?today=2026-01-15", id), nil))
				if w.Code != 200 {
					b.Fatalf("%d %s", w.Code, w.Body)
				}
			}
		}
		perID(b, cpu0, n)
	})
}

// TestWarmBatchMakesNoUpstreamRequest is the benchmark's promise as a test:
// a cold 500-id batch through the REST route asks the register once per
// distinct identifier, a warm one not at all.
func TestWarmBatchMakesNoUpstreamRequest(t *testing.T) {
	t.Parallel()
	mt := httpmock.NewMockTransport()
	var calls atomic.Int64
	body := upstreamFixture(t, "brreg_enhet_923609016.json")
	mt.RegisterRegexpResponder("GET", regexp.MustCompile(`/enheter/\d{9}$`), sameUnit(body, &calls))
	clock := newFakeClock()
	h := newHarnessWith(t, patientRegistry(t, mt, clock), clock, restserver.WithRateLimit(0))
	ids := orgNrs(250)
	req, _ := json.Marshal(map[string]any{"ids": append(ids, ids...), "today": "2026-01-15"}) // each twice
	for round, want := range []int64{250, 250} {
		res := h.post(t, "/v1/NO/deadlines:batch", string(req))
		var got batchResponse
		if err := json.Unmarshal(res.body, &got); err != nil || res.status != 200 || got.Failed != 0 || got.Count != 500 {
			t.Fatalf("round %d: status %d failed %d count %d %v", round, res.status, got.Failed, got.Count, err)
		}
		if n := calls.Load(); n != want {
			t.Errorf("after round %d: %d upstream requests, want %d", round, n, want)
		}
	}
}
