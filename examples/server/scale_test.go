package main

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/companyregistry/registry/countries"
	"github.com/companyregistry/registry/internal/redistest"
	"github.com/companyregistry/registry/internal/testwait"
	"github.com/companyregistry/registry/ratelimit"
)

// orgnr returns the i-th valid Norwegian organisation number from 920000000
// on (mod 11, weights 3 2 7 6 5 4 3 2).
func orgnr(i int) string {
	weights := []int{3, 2, 7, 6, 5, 4, 3, 2}
	for n := 92000000 + i*7; ; n++ {
		s := strconv.Itoa(n)
		sum := 0
		for k, w := range weights {
			sum += int(s[k]-'0') * w
		}
		c := 11 - sum%11
		if c == 11 {
			c = 0
		}
		if c != 10 {
			return s + strconv.Itoa(c)
		}
	}
}

// countingBrreg answers every unit with the recorded Equinor unit under the
// requested number, and counts the requests.
func countingBrreg(t *testing.T) (*httptest.Server, *atomic.Int64) {
	t.Helper()
	body, err := os.ReadFile("testdata/brreg_enhet_923609016.json")
	if err != nil {
		t.Fatal(err)
	}
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.HasPrefix(r.URL.Path, "/enheter/") {
			w.WriteHeader(http.StatusNotFound)
			return
		}
		n.Add(1)
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(strings.ReplaceAll(string(body), "923609016", strings.TrimPrefix(r.URL.Path, "/enheter/"))))
	}))
	t.Cleanup(srv.Close)
	return srv, &n
}

// TestScaleOutReplicas runs three replicas of the program on one real
// redis-server and a fake register: a lookup through one replica is a hit
// with the same fetched_at on the others (one upstream request); the
// client rate limit (60 per minute) holds across replicas for REST and MCP
// together; the upstream budget holds across replicas; with Redis killed
// every request still answers (no 5xx); with Redis back sharing resumes.
func TestScaleOutReplicas(t *testing.T) {
	t.Parallel()
	srv := redistest.StartServer(t)
	upstream, calls := countingBrreg(t)
	var reps []*running
	for range 3 {
		reps = append(reps, start(t, map[string]string{
			"BRREG_BASE_URL":            upstream.URL,
			"REDIS_URL":                 "redis://" + srv.Addr() + "/0",
			"REGISTRY_UPSTREAM_BUDGETS": "NO=20/1h", // a burst of 2, then 18 an hour
			"REGISTRY_LOG_LEVEL":        "info",
			"REGISTRY_METRICS_ADDR":     "127.0.0.1:0",
			// The longest there is: a loaded machine must not make Redis look
			// down while it is up (each call fails at once when it is killed).
			"REDIS_TIMEOUT": "5s",
		}))
	}
	get := func(r *running, path string) (int, map[string]any) {
		t.Helper()
		res, err := http.Get("http://" + r.addr + path)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		var m map[string]any
		b, _ := io.ReadAll(res.Body)
		_ = json.Unmarshal(b, &m)
		return res.StatusCode, m
	}
	mcpCall := func(r *running) string {
		t.Helper()
		body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"list_countries","arguments":{}}}`
		req, _ := http.NewRequestWithContext(t.Context(), http.MethodPost, "http://"+r.addr+"/mcp", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return string(b)
	}
	t.Cleanup(func() {
		if t.Failed() {
			for i, r := range reps {
				t.Logf("replica %d:\n%s", i, grepLines(r.stderr.String(), "redis", "budget"))
			}
		}
	})
	begin := time.Now()
	used := 0

	// One upstream request for three replicas.
	var fetched []any
	var cached []any
	for _, r := range reps {
		code, m := get(r, "/v1/NO/company/923609016")
		used++
		if code != http.StatusOK {
			t.Fatalf("lookup: %d %v", code, m)
		}
		fetched, cached = append(fetched, m["fetched_at"]), append(cached, m["cached"])
	}
	if diff := cmp.Diff([]any{false, true, true}, cached); diff != "" {
		t.Errorf("cached mismatch (-want +got):\n%s", diff)
	}
	if fetched[0] != fetched[1] || fetched[0] != fetched[2] {
		t.Errorf("fetched_at differ: %v", fetched)
	}
	if n := calls.Load(); n != 1 {
		t.Errorf("the register saw %d requests, want 1", n)
	}

	// The budget across replicas: a burst of cold lookups reaches the
	// register at most the budget's burst (2) times; one is spent.
	limited := 0
	for i := range 9 {
		code, m := get(reps[i%3], "/v1/NO/company/"+orgnr(i))
		used++
		if code == http.StatusTooManyRequests {
			if e, _ := m["error"].(map[string]any); e == nil || e["code"] != "rate_limited" {
				t.Errorf("budget refusal body %v", m)
			}
			limited++
		}
	}
	if n := calls.Load(); n != 2 || limited != 8 {
		t.Errorf("%d upstream requests and %d refusals, want 2 and 8", n, limited)
	}

	// The client rate limit across replicas, REST and MCP together.
	passed := used
	for i := 0; ; i++ {
		var ok bool
		if i%4 == 3 {
			ok = !strings.Contains(mcpCall(reps[i%3]), "rate_limited")
		} else {
			code, _ := get(reps[i%3], "/v1/countries")
			ok = code == http.StatusOK
		}
		if !ok {
			break
		}
		passed++
		if passed > 200 {
			t.Fatal("the rate limit does not hold across replicas")
		}
	}
	refill := int(time.Since(begin).Seconds()) + 1
	if passed < 60 || passed > 60+refill {
		t.Errorf("%d requests passed before the first refusal, want 60 (+%d refilled)", passed, refill)
	}
	if out := mcpCall(reps[0]); !strings.Contains(out, "rate_limited") || strings.Contains(out, `"error":{"code":-`) {
		// One token may have refilled since; the next call is refused.
		if out = mcpCall(reps[0]); !strings.Contains(out, "rate_limited") {
			t.Errorf("MCP over the limit: %s", out)
		}
	}

	// Redis killed: every request answers, from each replica's own state.
	srv.Stop()
	for i := range 6 {
		code, m := get(reps[i%3], "/v1/NO/company/923609016")
		if code >= 500 {
			t.Errorf("with Redis killed: %d %v", code, m)
		}
		// A cold identifier: the cache, the budget and the limiter all
		// find Redis gone and use the replica's own.
		code, m = get(reps[i%3], "/v1/NO/company/"+orgnr(50+i))
		if code != http.StatusOK && code != http.StatusTooManyRequests {
			t.Errorf("cold lookup with Redis killed: %d %v", code, m)
		}
	}
	for i, r := range reps {
		// One warning per change of state: Redis is down now, so there is
		// one more warning than recoveries (a loaded machine may have timed
		// a call out before, which is a change of state too).
		for _, c := range []string{"cache", "budget"} {
			logs := r.stderr.String()
			down := strings.Count(logs, `"msg":"redis unreachable, using the in-process fallback","component":"`+c+`"`)
			up := strings.Count(logs, `"msg":"redis reachable again","component":"`+c+`"`)
			if down != up+1 {
				t.Errorf("replica %d: %d %s warnings and %d recoveries, want one more warning", i, down, c, up)
			}
		}
	}
	// Redis back (empty): sharing resumes by itself.
	srv.Start()
	testwait.Until(t, "sharing resumes", func() bool {
		id := orgnr(100)
		if code, _ := get(reps[0], "/v1/NO/company/"+id); code != http.StatusOK {
			return false
		}
		code, m := get(reps[1], "/v1/NO/company/"+id)
		return code == http.StatusOK && m["cached"] == true
	})
}

// grepLines returns the lines of s that contain any of words.
func grepLines(s string, words ...string) string {
	var out []string
	for _, line := range strings.Split(s, "\n") {
		for _, w := range words {
			if strings.Contains(line, w) {
				out = append(out, line)
				break
			}
		}
	}
	return strings.Join(out, "\n")
}

func TestParseBudgets(t *testing.T) {
	t.Parallel()
	rates := defaultBudgets()
	if err := parseBudgets(" gb=100/1m, NO=off ,", rates); err != nil {
		t.Fatal(err)
	}
	if _, ok := rates["NO"]; ok {
		t.Error("NO=off left a budget")
	}
	if got := rates["GB"]; got.Limit+got.Burst != 100 || got.Period != time.Minute {
		t.Errorf("GB = %+v", got)
	}
	if got := rates["SE"]; got.Limit+got.Burst != 29 || got.Period != time.Minute {
		t.Errorf("SE default = %+v, want 29 a minute (Bolagsverket: 60 requests a minute, two a lookup)", got)
	}
	for _, bad := range []string{"GB", "GB=", "GB=1/1m", "GB=x/1m", "GB=10/x", "GBR=10/1m", "GB=10/0s", "1B=10/1m"} {
		if err := parseBudgets(bad, defaultBudgets()); err == nil {
			t.Errorf("parseBudgets(%q) succeeded", bad)
		}
	}
}

// TestBadRedisURL: an invalid REDIS_URL exits 2 naming the variable,
// without showing the URL or its password.
func TestBadRedisURL(t *testing.T) {
	t.Parallel()
	for _, u := range []string{"http://:s3cret@h", "redis://:s3cret@h:port", "redis://:s3cret@h/db"} {
		var stderr syncBuffer
		code := run(t.Context(), nil, env(map[string]string{"REDIS_URL": u}), strings.NewReader(""), io.Discard, &stderr, nil)
		if code != 2 || !strings.Contains(stderr.String(), "REDIS_URL") || strings.Contains(stderr.String(), "s3cret") {
			t.Errorf("REDIS_URL %q: exit %d, stderr %q", u, code, stderr.String())
		}
	}
	var stderr syncBuffer
	if code := run(t.Context(), nil, env(map[string]string{"REGISTRY_UPSTREAM_BUDGETS": "GB=lots"}), strings.NewReader(""), io.Discard, &stderr, nil); code != 2 {
		t.Errorf("bad budgets: exit %d", code)
	}
	for _, bad := range []string{"soon", "0s", "1m"} {
		var stderr syncBuffer
		if code := run(t.Context(), nil, env(map[string]string{"REDIS_TIMEOUT": bad}), strings.NewReader(""), io.Discard, &stderr, nil); code != 2 ||
			!strings.Contains(stderr.String(), "REDIS_TIMEOUT") {
			t.Errorf("REDIS_TIMEOUT %q: exit %d, %s", bad, code, stderr.String())
		}
	}
}

// TestMetricsEndpoint: with REGISTRY_METRICS_ADDR the program serves
// /metrics on that address (not on the API listener), counting requests by
// route pattern, upstream requests and cache gets, never an identifier.
func TestMetricsEndpoint(t *testing.T) {
	t.Parallel()
	upstream, _ := countingBrreg(t)
	r := start(t, map[string]string{"BRREG_BASE_URL": upstream.URL, "REGISTRY_METRICS_ADDR": "127.0.0.1:0"})
	var addr string
	for _, line := range strings.Split(r.stderr.String(), "\n") {
		var m struct{ Msg, Addr string }
		if json.Unmarshal([]byte(line), &m) == nil && m.Msg == "metrics listening" {
			addr = m.Addr
		}
	}
	if addr == "" {
		t.Fatalf("no metrics address logged: %s", r.stderr.String())
	}
	for range 2 {
		res, err := http.Get("http://" + r.addr + "/v1/NO/company/923609016")
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
	}
	if res, err := http.Get("http://" + r.addr + "/metrics"); err == nil {
		res.Body.Close()
		if res.StatusCode == http.StatusOK {
			t.Error("/metrics is served on the API listener")
		}
	}
	res, err := http.Get("http://" + addr + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	out := string(b)
	for _, want := range []string{
		`companyregistry_http_requests_total{route="GET /v1/{country}/company/{id}",status="200",surface="rest"} 2`,
		`companyregistry_cache_gets_total{result="hit"} 1`,
		`outcome="2xx"} 1`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %s", want)
		}
	}
	if strings.Contains(out, "923609016") {
		t.Error("the metrics hold an identifier")
	}
}

// FuzzParseBudgets: any REGISTRY_UPSTREAM_BUDGETS value is refused or gives
// usable rates, without a panic.
func FuzzParseBudgets(f *testing.F) {
	for _, s := range []string{"GB=600/5m,NO=off", "FI=2/1ns", "gb=99999999999/1h", " , ", "NO=3/-1s"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		rates := defaultBudgets()
		if err := parseBudgets(v, rates); err != nil {
			return
		}
		for cc, r := range rates {
			if _, err := ratelimit.NewLocal(r); err != nil {
				t.Errorf("%q gave an unusable rate for %s: %+v", v, cc, r)
			}
		}
	})
}

// TestHealthCacheAndRedis: /health names the cache backend and, with
// REDIS_URL, whether Redis answers; Redis killed leaves it 200 with
// reachable false, Redis back makes it true again. The body never holds
// the Redis address.
func TestHealthCacheAndRedis(t *testing.T) {
	t.Parallel()
	upstream, _ := countingBrreg(t)
	type health struct {
		Status string `json:"status"`
		Cache  string `json:"cache"`
		Redis  *struct {
			Reachable bool `json:"reachable"`
		} `json:"redis"`
	}
	get := func(r *running) (int, string, health) {
		t.Helper()
		res, err := http.Get("http://" + r.addr + "/health")
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		var h health
		if err := json.Unmarshal(b, &h); err != nil {
			t.Fatalf("/health: %v: %s", err, b)
		}
		return res.StatusCode, string(b), h
	}
	type seen struct {
		Code  int
		Cache string
		Redis string // "null", "true" or "false"
	}
	see := func(r *running) (seen, string) {
		t.Helper()
		code, body, h := get(r)
		s := seen{Code: code, Cache: h.Cache, Redis: "null"}
		if h.Redis != nil {
			s.Redis = strconv.FormatBool(h.Redis.Reachable)
		}
		if h.Status != "ok" {
			t.Errorf("/health status %q", h.Status)
		}
		return s, body
	}

	mem := start(t, map[string]string{"BRREG_BASE_URL": upstream.URL})
	if got, body := see(mem); got != (seen{200, "memory", "null"}) {
		t.Errorf("memory only: %+v %s", got, body)
	}

	srv := redistest.StartServer(t)
	rep := start(t, map[string]string{
		"BRREG_BASE_URL":        upstream.URL,
		"REDIS_URL":             "redis://" + srv.Addr() + "/0",
		"REDIS_TIMEOUT":         "5s",          // the longest: a slow ping must not make a Redis that is up look down
		"REGISTRY_METRICS_ADDR": "127.0.0.1:0", // the cache is wrapped by the metrics
	})
	if got, body := see(rep); got != (seen{200, "redis", "true"}) {
		t.Errorf("redis up: %+v %s", got, body)
	}
	srv.Stop()
	testwait.Until(t, "/health reports Redis unreachable", func() bool {
		got, body := see(rep)
		if got.Code != http.StatusOK || strings.Contains(body, srv.Addr()) {
			t.Fatalf("redis killed: %+v %s", got, body)
		}
		return got == seen{200, "redis", "false"}
	})
	srv.Start()
	testwait.Until(t, "/health reports Redis back", func() bool {
		got, _ := see(rep)
		return got == seen{200, "redis", "true"}
	})
}

// TestBudgetNames: Companies House's and Bolagsverket's budgets in Redis
// are per key or credential (a digest; the secret is never in the name),
// the others one per register.
func TestBudgetNames(t *testing.T) {
	t.Parallel()
	cfg := config{countries: countries.Config{CompaniesHouseAPIKey: "ch-key-SECRET", BolagsverketCredentials: "id:bv-SECRET"}}
	other := config{countries: countries.Config{CompaniesHouseAPIKey: "another", BolagsverketCredentials: "id:another"}}
	for _, cc := range []string{"GB", "SE"} {
		name := budgetName(cc, cfg)
		if !strings.HasPrefix(name, cc+"/") || len(name) != len(cc)+1+12 || strings.Contains(name, "SECRET") || name == budgetName(cc, other) {
			t.Errorf("%s: budget name %q", cc, name)
		}
		if got := budgetName(cc, config{}); got != cc {
			t.Errorf("%s without a key: %q", cc, got)
		}
	}
	if got := budgetName("NO", cfg); got != "NO" {
		t.Errorf("NO: %q", got)
	}
}

// TestReplicasShareBudget: with Redis unreachable, a replica of
// REGISTRY_REPLICAS=2 keeps to half of an upstream budget (NO=40/1h: a
// burst of 4, so 2 cold lookups each), where a single replica keeps to
// all of it (issue 24, item 5); the same without Redis at all.
func TestReplicasShareBudget(t *testing.T) {
	t.Parallel()
	down := "redis://" + redistest.RefusedAddr(t) + "/0"
	for _, tc := range []struct {
		redis, replicas string
		want            int64
	}{{down, "2", 2}, {down, "", 4}, {"", "2", 2}, {"", "", 4}} {
		upstream, calls := countingBrreg(t)
		e := map[string]string{"BRREG_BASE_URL": upstream.URL, "REGISTRY_UPSTREAM_BUDGETS": "NO=40/1h",
			"REGISTRY_RATE_LIMIT": "0", "REGISTRY_REPLICAS": tc.replicas}
		if tc.redis != "" {
			e["REDIS_URL"] = tc.redis
		}
		r := start(t, e)
		for i := range 6 {
			res, err := http.Get("http://" + r.addr + "/v1/NO/company/" + orgnr(200+i))
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
		}
		if got := calls.Load(); got != tc.want {
			t.Errorf("REDIS_URL %q, REGISTRY_REPLICAS %q: %d upstream calls, want %d", tc.redis, tc.replicas, got, tc.want)
		}
		r.cancel()
		<-r.done
	}
	for _, bad := range []string{"0", "-1", "two", "1001"} {
		if _, err := parseConfig(nil, env(map[string]string{"REGISTRY_REPLICAS": bad}), io.Discard); err == nil ||
			!strings.Contains(err.Error(), "REGISTRY_REPLICAS") {
			t.Errorf("REGISTRY_REPLICAS %q: %v", bad, err)
		}
	}
}
