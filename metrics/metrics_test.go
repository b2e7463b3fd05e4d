package metrics_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/cache"
	"github.com/companyregistry/registry/countries/no"
	"github.com/companyregistry/registry/internal/leakcheck"
	"github.com/companyregistry/registry/internal/seal"
	"github.com/companyregistry/registry/internal/testwait"
	"github.com/companyregistry/registry/metrics"
	"github.com/companyregistry/registry/ratelimit"
)

func TestMain(m *testing.M) { leakcheck.Main(m) }

type refuseBudget struct{}

func (refuseBudget) Take(context.Context) (bool, time.Duration, error) {
	return false, time.Second, nil
}

// TestMetrics drives every wrapper once and checks the exposition: the
// series are there, and no identifier, query or address is a label.
func TestMetrics(t *testing.T) {
	t.Parallel()
	m := metrics.New()
	ctx := t.Context()

	mem, _ := cache.NewMemory()
	c := m.Cache(mem)
	_ = c.Set(ctx, "companyregistry/2/NO/company/923609016", []byte("x"), time.Hour)
	_, _, _ = c.Get(ctx, "companyregistry/2/NO/company/923609016")
	_, _, _ = c.Get(ctx, "companyregistry/2/NO/company/999999999")

	l, _ := ratelimit.NewLocal(ratelimit.PerMinute(1))
	lim := m.Limiter(l)
	_, _, _ = lim.Allow(ctx, "192.0.2.7", 1)
	_, _, _ = lim.Allow(ctx, "192.0.2.7", 1)
	_, _, _ = m.Budget("GB", refuseBudget{}).Take(ctx)
	m.RedisUp("cache", func() bool { return false })

	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.Contains(r.URL.Path, "missing") {
			w.WriteHeader(http.StatusNotFound)
		}
	}))
	defer upstream.Close()
	client := &http.Client{Transport: m.Transport(nil)}
	for _, p := range []string{"/enheter/923609016", "/enheter/missing?navn=secret"} {
		resp, err := client.Get(upstream.URL + p)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	client.CloseIdleConnections()

	h := m.Middleware("rest", func(*http.Request) string { return "GET /v1/{country}/company/{id}" },
		http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusTooManyRequests) }))
	h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, "/v1/NO/company/923609016", nil))

	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	body, _ := io.ReadAll(rec.Body)
	out := string(body)
	for _, want := range []string{
		`companyregistry_cache_gets_total{result="hit"} 1`,
		`companyregistry_cache_gets_total{result="miss"} 1`,
		`companyregistry_refusals_total{country="",kind="client"} 1`,
		`companyregistry_refusals_total{country="GB",kind="budget"} 1`,
		`companyregistry_redis_up{component="cache"} 0`,
		`companyregistry_upstream_requests_total{host="127.0.0.1",outcome="2xx"} 1`,
		`companyregistry_upstream_requests_total{host="127.0.0.1",outcome="4xx"} 1`,
		`companyregistry_upstream_request_duration_seconds_count{host="127.0.0.1"} 2`,
		`companyregistry_http_requests_total{route="GET /v1/{country}/company/{id}",status="429",surface="rest"} 1`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %s", want)
		}
	}
	// Labels and names only: a sample value of the runtime's collectors
	// (0.0999999999...) may hold any digits.
	var names strings.Builder
	for line := range strings.Lines(out) {
		if i := strings.LastIndexByte(line, ' '); i > 0 && !strings.HasPrefix(line, "#") {
			line = line[:i]
		}
		names.WriteString(line)
	}
	for _, never := range []string{"923609016", "999999999", "192.0.2.7", "secret", "missing"} {
		if strings.Contains(names.String(), never) {
			t.Errorf("the exposition holds %q in a name or label", never)
		}
	}
}

// TestFetchCollapsed: two concurrent lookups of one number through a
// blocked register are one upstream request and one collapsed call,
// counted by country only.
func TestFetchCollapsed(t *testing.T) {
	t.Parallel()
	body, err := os.ReadFile("testdata/brreg_enhet_923609016.json")
	if err != nil {
		t.Fatal(err)
	}
	entered := make(chan struct{}, 2)
	release := make(chan struct{})
	var calls atomic.Int64
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		entered <- struct{}{}
		<-release
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(body)
	}))
	defer upstream.Close()
	m := metrics.New()
	mod, err := no.New(no.WithBaseURL(upstream.URL), no.WithHTTPClient(&http.Client{Transport: m.Transport(nil)}))
	if err != nil {
		t.Fatal(err)
	}
	reg, err := registry.New([]registry.Country{mod}, registry.WithFetchObserver(m))
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make([]error, 2)
	wg.Go(func() { _, errs[0] = reg.Lookup(t.Context(), "NO", "923609016") })
	<-entered // the first lookup is at the register
	wg.Go(func() { _, errs[1] = reg.Lookup(t.Context(), "NO", "923 609 016") })
	testwait.Until(t, "both callers wait for the one fetch", func() bool { return reg.Internal(seal.Key{}).FetchCallers() >= 2 })
	close(release)
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("lookup %d: %v", i, err)
		}
	}
	if n := calls.Load(); n != 1 {
		t.Errorf("the register saw %d requests, want 1", n)
	}
	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	var got []string
	for _, line := range strings.Split(rec.Body.String(), "\n") {
		if strings.HasPrefix(line, "companyregistry_fetches_collapsed_total") {
			got = append(got, line)
		}
	}
	if diff := cmp.Diff([]string{`companyregistry_fetches_collapsed_total{country="NO"} 1`}, got); diff != "" {
		t.Errorf("collapsed series (-want +got):\n%s", diff)
	}
}

// TestMiddlewareCountsTheFinalStatus: a handler that sends 103 Early Hints
// before its 200 is counted under 200, the response's status (RFC 9110,
// section 15.2: a 1xx is interim, the final response follows).
func TestMiddlewareCountsTheFinalStatus(t *testing.T) {
	t.Parallel()
	m := metrics.New()
	h := m.Middleware("rest", func(*http.Request) string { return "GET /hints" },
		http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			w.WriteHeader(http.StatusEarlyHints)
			w.WriteHeader(http.StatusOK)
		}))
	h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, "/hints", nil))
	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	var got []string
	for line := range strings.Lines(rec.Body.String()) {
		if strings.HasPrefix(line, "companyregistry_http_requests_total{") {
			got = append(got, strings.TrimSpace(line))
		}
	}
	want := []string{`companyregistry_http_requests_total{route="GET /hints",status="200",surface="rest"} 1`}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("request series (-want +got):\n%s", diff)
	}
}

// reserveBudget refuses every reservation.
type reserveBudget struct{ refuseBudget }

func (reserveBudget) Reserve(context.Context, time.Duration) (bool, time.Duration, func(context.Context), error) {
	return false, time.Second, nil, nil
}

// TestBudgetKeepsReserve: the counting wrapper of a budget that reserves
// (registry.UpstreamReserver, as budget.Budget) reserves too, so that the
// Registry keeps its waiters in order, and counts a refused reservation.
func TestBudgetKeepsReserve(t *testing.T) {
	t.Parallel()
	m := metrics.New()
	b, ok := m.Budget("NO", reserveBudget{}).(metrics.Reserver)
	if !ok {
		t.Fatal("the wrapper of a reserving budget does not reserve")
	}
	_, _, _, _ = b.Reserve(t.Context(), time.Second)
	if _, ok := m.Budget("GB", refuseBudget{}).(metrics.Reserver); ok {
		t.Error("the wrapper of a budget that cannot reserve says it can")
	}
	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	if want := `companyregistry_refusals_total{country="NO",kind="budget"} 1`; !strings.Contains(rec.Body.String(), want) {
		t.Errorf("metrics lack %s", want)
	}
}
