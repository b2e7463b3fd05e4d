package main

import (
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/idcheck"
	"github.com/companyregistry/registry/internal/fakeclock"
)

// anyUnitBrreg serves the recorded Equinor unit for every organisation
// number, as that number, and counts the requests.
func anyUnitBrreg(t *testing.T, calls *atomic.Int64) *httptest.Server {
	t.Helper()
	body := string(testdata(t, "brreg_enhet_923609016.json"))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id, ok := strings.CutPrefix(r.URL.Path, "/enheter/")
		if !ok || strings.Contains(id, "/") {
			w.WriteHeader(http.StatusNotFound)
			return
		}
		calls.Add(1)
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(strings.ReplaceAll(body, "923609016", id)))
	}))
	t.Cleanup(srv.Close)
	return srv
}

// validOrgNrs returns n distinct valid organisation numbers.
func validOrgNrs(n int) []string {
	var out []string
	for x := 910000000; len(out) < n; x++ {
		if o, p := idcheck.ParseOrgNr(strconv.Itoa(x)); p == idcheck.ProblemNone {
			out = append(out, o.String())
		}
	}
	return out
}

// pacedProgram starts the program's HTTP stack with the default upstream
// budgets built by buildShared (NO=300/1m: a burst of 30, then one call
// every 222 ms) on a fake clock, and a sleep that moves the clock: no
// request waits in real time, and waits records what each would have
// waited.
func pacedProgram(t *testing.T, brreg, upstreamWait string) (p *program, waits func() []time.Duration) {
	t.Helper()
	clock := fakeclock.New(time.Date(2026, 1, 15, 9, 0, 0, 0, time.UTC))
	var mu sync.Mutex
	var slept []time.Duration
	pace := &pacing{now: clock.Now, sleep: func(ctx context.Context, d time.Duration) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		mu.Lock()
		slept = append(slept, d)
		mu.Unlock()
		clock.Advance(d)
		return nil
	}}
	sh, err := buildShared(config{pace: pace, upstreamWait: upstreamWait}, []string{"NO"}, slog.New(slog.DiscardHandler), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(sh.close)
	p = startProgram(t, programConfig{brreg: brreg, regOpts: sh.regOpts})
	return p, func() []time.Duration {
		mu.Lock()
		defer mu.Unlock()
		return append([]time.Duration(nil), slept...)
	}
}

// TestHundredColdLookupsWaitForTheBudget (issue 29): with the example
// server's default budgets, 100 sequential cold lookups all answer 200:
// the first 30 at once, the 70 past the burst after a wait for the budget
// (about 222 ms each on the fake clock, within the default 2 s bound).
func TestHundredColdLookupsWaitForTheBudget(t *testing.T) {
	t.Parallel()
	var calls atomic.Int64
	p, waits := pacedProgram(t, anyUnitBrreg(t, &calls).URL, "")
	for i, id := range validOrgNrs(100) {
		if res := p.get(t, "/v1/NO/company/"+id); res.status != http.StatusOK {
			t.Fatalf("lookup %d (%s): %d %s", i+1, id, res.status, res.body)
		}
	}
	if n := calls.Load(); n != 100 {
		t.Errorf("%d register calls, want 100", n)
	}
	w := waits()
	if len(w) != 70 {
		t.Errorf("%d waits, want 70", len(w))
	}
	for _, d := range w {
		if d <= 0 || d > registry.DefaultBudgetWait {
			t.Errorf("a wait of %v, want within (0, %v]", d, registry.DefaultBudgetWait)
		}
	}
}

// TestBurstBeyondTheWaitIsRateLimited (issue 29): when the budget's wait
// cannot fit the bound (REGISTRY_UPSTREAM_WAIT=100ms against a call every
// 222 ms), the 31st cold lookup and the ones after it are refused at once:
// 429 rate_limited with details.retry_after and the Retry-After header,
// and the register is not called for them.
func TestBurstBeyondTheWaitIsRateLimited(t *testing.T) {
	t.Parallel()
	var calls atomic.Int64
	p, waits := pacedProgram(t, anyUnitBrreg(t, &calls).URL, "100ms")
	var ok, limited int
	for i, id := range validOrgNrs(40) {
		res := p.get(t, "/v1/NO/company/"+id)
		switch res.status {
		case http.StatusOK:
			ok++
		case http.StatusTooManyRequests:
			limited++
			e := envelope(t, res.body)
			if e.Code != registry.CodeRateLimited || e.RetryAfter() != 1 || res.header.Get("Retry-After") != "1" {
				t.Errorf("lookup %d: code %s retry_after %d Retry-After %q", i+1, e.Code, e.RetryAfter(), res.header.Get("Retry-After"))
			}
		default:
			t.Fatalf("lookup %d: %d %s", i+1, res.status, res.body)
		}
	}
	if ok != 30 || limited != 10 || calls.Load() != 30 || len(waits()) != 0 {
		t.Errorf("%d answered, %d rate_limited, %d register calls, %d waits; want 30, 10, 30, 0", ok, limited, calls.Load(), len(waits()))
	}
}
