package restserver_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/ratelimit"
	"github.com/companyregistry/registry/restserver"
)

// keyLimiter refuses every key after allow requests and records the keys.
type keyLimiter struct {
	mu    sync.Mutex
	allow int
	err   error
	keys  []string
}

func (l *keyLimiter) Allow(_ context.Context, key string, cost int) (bool, time.Duration, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.keys = append(l.keys, key)
	if l.err != nil {
		return false, 0, l.err
	}
	return len(l.keys) <= l.allow, 1500 * time.Millisecond, nil
}

// TestWithLimiter: the /v1 routes draw from the shared limiter with the
// client's limit key; a refusal is 429 rate_limited with Retry-After;
// /health is never charged; a failing limiter lets requests through.
func TestWithLimiter(t *testing.T) {
	t.Parallel()
	lim := &keyLimiter{allow: 1}
	srv, err := restserver.New(newRegistry(t, newFakeClock()), restserver.WithLimiter(lim))
	if err != nil {
		t.Fatal(err)
	}
	do := func(path, remote string) *httptest.ResponseRecorder {
		req := httptest.NewRequest(http.MethodGet, path, nil)
		req.RemoteAddr = remote
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, req)
		return rec
	}
	if rec := do("/v1/countries", "[2001:db8:1:2:3::9]:5000"); rec.Code != http.StatusOK {
		t.Fatalf("first request: %d", rec.Code)
	}
	rec := do("/v1/countries", "192.0.2.7:5000")
	if rec.Code != http.StatusTooManyRequests || rec.Header().Get("Retry-After") != "2" {
		t.Errorf("second request: %d, Retry-After %q; want 429 and 2", rec.Code, rec.Header().Get("Retry-After"))
	}
	var env registry.Error
	if err := env.UnmarshalJSON(rec.Body.Bytes()); err != nil || env.Code != registry.CodeRateLimited || env.RetryAfter() != 2 {
		t.Errorf("body %s: %v", rec.Body, err)
	}
	if rec := do("/health", "192.0.2.7:5000"); rec.Code != http.StatusOK {
		t.Errorf("/health: %d", rec.Code)
	}
	if diff := cmp.Diff([]string{"2001:db8:1:2::", "192.0.2.7"}, lim.keys); diff != "" {
		t.Errorf("keys mismatch (-want +got):\n%s", diff)
	}

	failing, err := restserver.New(newRegistry(t, newFakeClock()), restserver.WithLimiter(&keyLimiter{err: errors.New("down")}))
	if err != nil {
		t.Fatal(err)
	}
	req := httptest.NewRequest(http.MethodGet, "/v1/countries", nil)
	rec = httptest.NewRecorder()
	failing.ServeHTTP(rec, req)
	if rec.Code != http.StatusOK {
		t.Errorf("with a failing limiter: %d", rec.Code)
	}
	if _, err := restserver.New(newRegistry(t, newFakeClock()), restserver.WithLimiter(nil)); err == nil {
		t.Error("WithLimiter(nil) accepted")
	}
}

// TestWithLimiterBatchAboveBurst: a batch of more identifiers than a shared
// ratelimit.Local's burst is charged as the built-in limiter charges it
// (a full burst, then a debt), not let through as a limiter error.
func TestWithLimiterBatchAboveBurst(t *testing.T) {
	t.Parallel()
	clock := newFakeClock()
	lim, err := ratelimit.NewLocal(ratelimit.PerMinute(10), ratelimit.WithClock(clock.Now))
	if err != nil {
		t.Fatal(err)
	}
	h := newHarnessWith(t, newRegistry(t, clock), clock, restserver.WithLimiter(lim), restserver.WithRateLimit(10))
	ids := make([]string, 25)
	for i := range ids {
		ids[i] = "123456"
	}
	body, _ := json.Marshal(map[string]any{"ids": ids, "today": "2026-01-15"})
	if res := h.post(t, batchPath, string(body)); res.status != http.StatusOK {
		t.Fatalf("batch of 25 with a full allowance: %d\n%s", res.status, res.body)
	}
	clock.Advance(time.Minute) // 10 - 25 + 10 = -5
	res := h.get(t, "/v1/ZZ/company/123456")
	if res.status != http.StatusTooManyRequests || res.header.Get("Retry-After") != "36" {
		t.Errorf("a minute after: %d, Retry-After %q; want 429 and 36 (six short)", res.status, res.header.Get("Retry-After"))
	}
}
