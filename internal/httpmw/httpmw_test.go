package httpmw_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/companyregistry/registry/internal/fakeclock"
	"github.com/companyregistry/registry/internal/httpmw"
)

// logs is a JSON logger whose records the test reads back.
type logs struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *logs) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *logs) logger() *slog.Logger {
	return slog.New(slog.NewJSONHandler(l, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

// records returns the records without their time, and without fields
// named in drop.
func (l *logs) records(t *testing.T, drop ...string) []map[string]any {
	t.Helper()
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(l.buf.String()), "\n") {
		if line == "" {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		delete(m, "time")
		for _, k := range drop {
			delete(m, k)
		}
		out = append(out, m)
	}
	return out
}

func newClock() *fakeclock.Clock {
	return fakeclock.New(time.Date(2026, 11, 25, 9, 0, 0, 0, time.UTC))
}

func request(remote, requestID string) *http.Request {
	r := httptest.NewRequest(http.MethodGet, "/v1/NO/company/923609016", nil)
	r.RemoteAddr = remote
	if requestID != "" {
		r.Header.Set("X-Request-Id", requestID)
	}
	return r
}

var hexID = regexp.MustCompile(`^[0-9a-f]{32}$`)

// TestBegin: a safe X-Request-Id is echoed, any other replaced by a fresh
// one; the client is the right-most untrusted X-Forwarded-For address
// behind a trusted proxy; the state is the writer of the next handler.
func TestBegin(t *testing.T) {
	t.Parallel()
	s := httpmw.New(httpmw.Config{Trusted: []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8")}})
	var got *httpmw.Request
	h := s.Begin(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { got = httpmw.Of(w) }))
	for _, tc := range []struct {
		name, remote, xff, id string
		wantIP, wantID        string
	}{
		{"echo", "203.0.113.7:1", "", "abc-123:x/y", "203.0.113.7", "abc-123:x/y"},
		{"unsafe id", "203.0.113.7:1", "", "a b", "203.0.113.7", ""},
		{"long id", "203.0.113.7:1", "", strings.Repeat("x", 129), "203.0.113.7", ""},
		{"no id", "203.0.113.7:1", "", "", "203.0.113.7", ""},
		{"trusted proxy", "10.1.2.3:1", "198.51.100.1, 10.9.9.9", "", "198.51.100.1", ""},
		{"untrusted peer", "203.0.113.7:1", "198.51.100.1", "", "203.0.113.7", ""},
	} {
		r := request(tc.remote, tc.id)
		if tc.xff != "" {
			r.Header.Set("X-Forwarded-For", tc.xff)
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if got == nil {
			t.Fatalf("%s: no state", tc.name)
		}
		if got.IP.String() != tc.wantIP {
			t.Errorf("%s: client %v, want %s", tc.name, got.IP, tc.wantIP)
		}
		if tc.wantID != "" && got.ID != tc.wantID || tc.wantID == "" && !hexID.MatchString(got.ID) {
			t.Errorf("%s: request ID %q, want %q (or a fresh one)", tc.name, got.ID, tc.wantID)
		}
		if h := w.Header().Values("X-Request-Id"); len(h) != 1 || h[0] != got.ID {
			t.Errorf("%s: X-Request-Id %q, want %q once", tc.name, h, got.ID)
		}
	}
}

// TestBeginNested: a stack inside another keeps the outer state: one ID,
// one client address (the outer stack's trusted proxies).
func TestBeginNested(t *testing.T) {
	t.Parallel()
	outer := httpmw.New(httpmw.Config{Trusted: []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8")}})
	inner := httpmw.New(httpmw.Config{})
	var seen []*httpmw.Request
	probe := func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			seen = append(seen, httpmw.Of(w))
			next.ServeHTTP(w, r)
		})
	}
	h := outer.Begin(probe(inner.Begin(probe(http.NotFoundHandler()))))
	r := request("10.1.2.3:1", "")
	r.Header.Set("X-Forwarded-For", "198.51.100.1")
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	if len(seen) != 2 || seen[0] == nil || seen[0] != seen[1] {
		t.Fatalf("states %v, want the same one twice", seen)
	}
	if seen[0].IP.String() != "198.51.100.1" || len(w.Header().Values("X-Request-Id")) != 1 {
		t.Errorf("client %v, X-Request-Id %q", seen[0].IP, w.Header().Values("X-Request-Id"))
	}
}

// TestNestedFillsIn: in a stack inside another, each piece of
// configuration comes from the outer stack when it has it, else from the
// inner one (issue 24, item 4: before, the inner stack's logger, limiter
// and trusted proxies were dropped whenever an outer stack existed, even
// one without them). Every combination of each piece, set or not outside
// and inside.
func TestNestedFillsIn(t *testing.T) {
	t.Parallel()
	build := func(outerCfg, innerCfg httpmw.Config, h http.HandlerFunc) http.Handler {
		outer, inner := httpmw.New(outerCfg), httpmw.New(innerCfg)
		mux := http.NewServeMux()
		mux.Handle("GET /v1/{country}/company/{id}", httpmw.Chain(inner.Begin, inner.AccessLog("inner"), inner.Recover)(h))
		return httpmw.Chain(outer.Begin, outer.AccessLog("outer"), outer.Recover)(mux)
	}
	t.Run("logger", func(t *testing.T) {
		t.Parallel()
		for _, tc := range []struct {
			outer, inner bool
			want         string // which logger has the records
		}{{true, true, "outer"}, {true, false, "outer"}, {false, true, "inner"}, {false, false, ""}} {
			var outerLogs, innerLogs logs
			var oc, ic httpmw.Config
			if tc.outer {
				oc.Logger = outerLogs.logger()
			}
			if tc.inner {
				ic.Logger = innerLogs.logger()
			}
			for _, f := range []http.HandlerFunc{
				func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte("ok")) },
				func(http.ResponseWriter, *http.Request) { panic("boom") },
			} {
				build(oc, ic, f).ServeHTTP(httptest.NewRecorder(), request("192.0.2.1:1", "rid-n"))
			}
			got := map[string][]string{}
			for name, l := range map[string]*logs{"outer": &outerLogs, "inner": &innerLogs} {
				for _, r := range l.records(t) {
					got[name] = append(got[name], fmt.Sprint(r["msg"], " ", r["status"], " ", r["route"]))
				}
			}
			want := map[string][]string{}
			if tc.want != "" {
				want[tc.want] = []string{"inner 200 GET /v1/{country}/company/{id}", "panic in handler <nil> <nil>",
					"inner 500 GET /v1/{country}/company/{id}"}
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("outer logger %v, inner logger %v: records (-want +got):\n%s", tc.outer, tc.inner, diff)
			}
		}
	})
	t.Run("limiter", func(t *testing.T) {
		t.Parallel()
		for _, tc := range []struct {
			outer, inner bool
			want         string // which limiter is charged
		}{{true, true, "outer"}, {true, false, "outer"}, {false, true, "inner"}, {false, false, ""}} {
			outerLim, innerLim := &limiter{allow: 10}, &limiter{allow: 10}
			var oc, ic httpmw.Config
			if tc.outer {
				oc.Limiter = outerLim
			}
			if tc.inner {
				ic.Limiter = innerLim
			}
			limited := false
			build(oc, ic, func(w http.ResponseWriter, r *http.Request) {
				limited = httpmw.Of(w).Limited()
				httpmw.Of(w).Charge(r.Context(), 2)
			}).ServeHTTP(httptest.NewRecorder(), request("192.0.2.7:1", ""))
			got := map[string][]string{}
			if len(outerLim.calls) > 0 {
				got["outer"] = outerLim.calls
			}
			if len(innerLim.calls) > 0 {
				got["inner"] = innerLim.calls
			}
			want := map[string][]string{}
			if tc.want != "" {
				want[tc.want] = []string{"192.0.2.7 ++"}
			}
			if diff := cmp.Diff(want, got); diff != "" || limited != (tc.want != "") {
				t.Errorf("outer limiter %v, inner limiter %v: Limited %v, calls (-want +got):\n%s", tc.outer, tc.inner, limited, diff)
			}
		}
	})
	t.Run("trusted proxies", func(t *testing.T) {
		t.Parallel()
		outerTrust := []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8")}
		// The inner list trusts one more hop, so that who wins shows.
		innerTrust := []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8"), netip.MustParsePrefix("198.51.100.0/24")}
		for _, tc := range []struct {
			outer, inner bool
			want         string
		}{{true, true, "198.51.100.1"}, {true, false, "198.51.100.1"}, {false, true, "203.0.113.5"}, {false, false, "10.1.2.3"}} {
			var oc, ic httpmw.Config
			if tc.outer {
				oc.Trusted = outerTrust
			}
			if tc.inner {
				ic.Trusted = innerTrust
			}
			var got netip.Addr
			r := request("10.1.2.3:1", "")
			r.Header.Set("X-Forwarded-For", "203.0.113.5, 198.51.100.1")
			build(oc, ic, func(w http.ResponseWriter, _ *http.Request) {
				got = httpmw.Of(w).IP
			}).ServeHTTP(httptest.NewRecorder(), r)
			if got.String() != tc.want {
				t.Errorf("outer trusted %v, inner trusted %v: client %v, want %s", tc.outer, tc.inner, got, tc.want)
			}
		}
	})
	t.Run("outer stack without an access log", func(t *testing.T) {
		t.Parallel()
		var outerLogs, innerLogs logs
		outer := httpmw.New(httpmw.Config{Logger: outerLogs.logger()})
		inner := httpmw.New(httpmw.Config{Logger: innerLogs.logger()})
		h := outer.Begin(httpmw.Chain(inner.Begin, inner.AccessLog("inner"))(http.NotFoundHandler()))
		h.ServeHTTP(httptest.NewRecorder(), request("192.0.2.1:1", "rid-o"))
		if got := outerLogs.records(t, "duration"); len(got) != 1 || got[0]["msg"] != "inner" || got[0]["status"] != 404.0 {
			t.Errorf("outer records %v, want the inner AccessLog's one record", got)
		}
		if got := innerLogs.records(t); len(got) != 0 {
			t.Errorf("inner records %v", got)
		}
	})
}

// unwrapper is a middleware's writer that exposes the one it wraps.
type unwrapper struct{ http.ResponseWriter }

func (u unwrapper) Unwrap() http.ResponseWriter { return u.ResponseWriter }

func TestOfAndContext(t *testing.T) {
	t.Parallel()
	if httpmw.Of(httptest.NewRecorder()) != nil || httpmw.Of(nil) != nil {
		t.Error("Of found a state where there is none")
	}
	if httpmw.FromContext(t.Context()) != nil {
		t.Error("FromContext found a state where there is none")
	}
	var q *httpmw.Request
	var fromCtx *httpmw.Request
	h := httpmw.New(httpmw.Config{}).Begin(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		q = httpmw.Of(unwrapper{w})
		fromCtx = httpmw.FromContext(httpmw.NewContext(r.Context(), q))
	}))
	h.ServeHTTP(httptest.NewRecorder(), request("192.0.2.1:1", ""))
	if q == nil || fromCtx != q {
		t.Errorf("Of through Unwrap %p, FromContext %p", q, fromCtx)
	}
}

// TestAccessLog: one record per request with the route pattern the mux
// matched, the status, bytes, duration on the stack's clock, request ID,
// client and added fields; error level for a 5xx.
func TestAccessLog(t *testing.T) {
	t.Parallel()
	var l logs
	clock := newClock()
	s := httpmw.New(httpmw.Config{Logger: l.logger(), Now: clock.Now})
	mux := http.NewServeMux()
	mux.HandleFunc("GET /v1/{country}/company/{id}", func(w http.ResponseWriter, _ *http.Request) {
		clock.Advance(3 * time.Millisecond)
		httpmw.Of(w).AddAttr(slog.String("tool", "lookup_company"))
		w.WriteHeader(http.StatusBadGateway)
		_, _ = w.Write([]byte("oops"))
	})
	h := httpmw.Chain(s.Begin, s.AccessLog("request"))(mux)
	h.ServeHTTP(httptest.NewRecorder(), request("192.0.2.1:1", "rid-1"))
	want := []map[string]any{{"level": "ERROR", "msg": "request", "method": "GET", "route": "GET /v1/{country}/company/{id}",
		"status": 502.0, "bytes": 4.0, "duration": float64(3 * time.Millisecond), "request_id": "rid-1",
		"client_ip": "192.0.2.1", "tool": "lookup_company"}}
	if diff := cmp.Diff(want, l.records(t)); diff != "" {
		t.Errorf("records (-want +got):\n%s", diff)
	}
}

// TestAccessLogFieldsBeyondTheFirst: the record has every added field, the
// ones beyond the first too (a Request keeps room for one with it, and the
// rest go to a slice of their own).
func TestAccessLogFieldsBeyondTheFirst(t *testing.T) {
	t.Parallel()
	var l logs
	s := httpmw.New(httpmw.Config{Logger: l.logger(), Now: newClock().Now})
	h := httpmw.Chain(s.Begin, s.AccessLog("request"))(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		q := httpmw.Of(w)
		q.AddAttr(slog.String("tool", "lookup_company"))
		q.AddAttr(slog.String("a", "1"), slog.Int("b", 2))
		q.AddAttr(slog.String("c", "3"))
	}))
	h.ServeHTTP(httptest.NewRecorder(), request("192.0.2.1:1", "rid-1"))
	want := []map[string]any{{"level": "INFO", "msg": "request", "method": "GET", "route": "(none)",
		"status": 200.0, "bytes": 0.0, "duration": 0.0, "request_id": "rid-1",
		"client_ip": "192.0.2.1", "tool": "lookup_company", "a": "1", "b": 2.0, "c": "3"}}
	if diff := cmp.Diff(want, l.records(t)); diff != "" {
		t.Errorf("records (-want +got):\n%s", diff)
	}
}

// TestAccessLogNested: the outer stack writes the one record, with the
// message, route and fields of the innermost handler (a REST route behind
// the outer mux's "/" and http.StripPrefix).
func TestAccessLogNested(t *testing.T) {
	t.Parallel()
	var outerLogs, innerLogs logs
	outer := httpmw.New(httpmw.Config{Logger: outerLogs.logger()})
	inner := httpmw.New(httpmw.Config{Logger: innerLogs.logger()})
	restMux := http.NewServeMux()
	restMux.HandleFunc("GET /v1/{country}/company/{id}", func(w http.ResponseWriter, _ *http.Request) {
		httpmw.Of(w).AddAttr(slog.Bool("inner", true))
	})
	rest := httpmw.Chain(inner.Begin, inner.AccessLog("rest request"))(restMux)
	appMux := http.NewServeMux()
	appMux.Handle("/registry/", http.StripPrefix("/registry", rest))
	h := httpmw.Chain(outer.Begin, outer.AccessLog("request"))(appMux)
	r := httptest.NewRequest(http.MethodGet, "/registry/v1/NO/company/923609016", nil)
	r.Header.Set("X-Request-Id", "rid-2")
	h.ServeHTTP(httptest.NewRecorder(), r)
	want := []map[string]any{{"level": "INFO", "msg": "rest request", "method": "GET", "route": "GET /v1/{country}/company/{id}",
		"status": 200.0, "bytes": 0.0, "request_id": "rid-2", "client_ip": "192.0.2.1", "inner": true}}
	if diff := cmp.Diff(want, outerLogs.records(t, "duration")); diff != "" {
		t.Errorf("outer records (-want +got):\n%s", diff)
	}
	if got := innerLogs.records(t); len(got) != 0 {
		t.Errorf("the inner stack logged %v", got)
	}
}

// TestRecover: a panic before anything is written is the internal_error
// envelope with status 500, logged with the request ID; after a write the
// connection is aborted (http.ErrAbortHandler, see TestRecoverAfterStart);
// http.ErrAbortHandler passes through.
func TestRecover(t *testing.T) {
	t.Parallel()
	var l logs
	s := httpmw.New(httpmw.Config{Logger: l.logger()})
	h := func(f http.HandlerFunc) http.Handler { return httpmw.Chain(s.Begin, s.Recover)(f) }

	w := httptest.NewRecorder()
	h(func(http.ResponseWriter, *http.Request) { panic("boom") }).ServeHTTP(w, request("192.0.2.1:1", "rid-3"))
	wantBody := `{"error":{"code":"internal_error","message":"An unexpected error occurred inside the service.","hint":"Retry once; if it fails again, report the problem to the operator of this service.","country":null,"registry":null,"details":{}}}`
	if w.Code != http.StatusInternalServerError || w.Body.String() != wantBody ||
		w.Header().Get("Content-Type") != "application/json" || w.Header().Get("Cache-Control") != "no-store" {
		t.Errorf("got %d %v %s", w.Code, w.Header(), w.Body)
	}
	recs := l.records(t)
	if len(recs) != 1 || recs[0]["msg"] != "panic in handler" || recs[0]["request_id"] != "rid-3" || recs[0]["panic"] != "boom" ||
		recs[0]["response_started"] != false || !strings.Contains(recs[0]["stack"].(string), "httpmw_test") {
		t.Errorf("records %v", recs)
	}

	for _, f := range []http.HandlerFunc{
		func(w http.ResponseWriter, _ *http.Request) {
			w.WriteHeader(http.StatusAccepted)
			panic("late")
		},
		func(http.ResponseWriter, *http.Request) { panic(http.ErrAbortHandler) },
	} {
		func() {
			defer func() {
				if p := recover(); p != http.ErrAbortHandler { //nolint:errorlint // sentinel
					t.Errorf("recovered %v, want http.ErrAbortHandler", p)
				}
			}()
			h(f).ServeHTTP(httptest.NewRecorder(), request("192.0.2.1:1", ""))
		}()
	}
}

// TestRecoverAfterStart: a real client of a handler that panics after its
// response started (a status, a flush, a body) sees an error, never a
// complete-looking answer: before issue 24 it got a clean 200 with a
// truncated body, or an internal_error envelope appended to the 200. The
// access log says what the client saw: the status sent and aborted=true,
// at error level.
func TestRecoverAfterStart(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		handler http.HandlerFunc
		status  float64 // in the access log
	}{
		{"status and part of the body flushed", func(w http.ResponseWriter, _ *http.Request) {
			w.WriteHeader(http.StatusAccepted)
			_, _ = w.Write([]byte(`{"hits":[`))
			http.NewResponseController(w).Flush() //nolint:errcheck // the flush is what is tested
			panic("late")
		}, 202},
		{"flush only", func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "text/event-stream")
			w.(http.Flusher).Flush()
			panic("after the flush")
		}, 200},
		{"body buffered, not flushed", func(w http.ResponseWriter, _ *http.Request) {
			_, _ = w.Write([]byte(`{"name":"EQUI`))
			panic("mid-body")
		}, 200},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var l logs
			s := httpmw.New(httpmw.Config{Logger: l.logger()})
			mux := http.NewServeMux()
			mux.Handle("GET /v1/{country}/company/{id}", tc.handler)
			srv := httptest.NewServer(httpmw.Chain(s.Begin, s.AccessLog("request"), s.Recover)(mux))
			defer srv.Close()
			req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, srv.URL+"/v1/NO/company/923609016", nil)
			if err != nil {
				t.Fatal(err)
			}
			req.Header.Set("X-Request-Id", "rid-9")
			resp, err := srv.Client().Do(req)
			if err == nil {
				body, rerr := io.ReadAll(resp.Body)
				resp.Body.Close()
				if rerr == nil {
					t.Fatalf("the client saw a complete %d answer: %q", resp.StatusCode, body)
				}
			}
			recs := l.records(t, "duration", "stack")
			if len(recs) != 2 {
				t.Fatalf("records %v, want a panic and an access record", recs)
			}
			want := []map[string]any{
				{"level": "ERROR", "msg": "panic in handler", "request_id": "rid-9", "panic": recs[0]["panic"], "response_started": true},
				{"level": "ERROR", "msg": "request", "method": "GET", "route": "GET /v1/{country}/company/{id}", "status": tc.status,
					"bytes": recs[1]["bytes"], "request_id": "rid-9", "client_ip": "127.0.0.1", "aborted": true},
			}
			if diff := cmp.Diff(want, recs); diff != "" {
				t.Errorf("records (-want +got):\n%s", diff)
			}
		})
	}
}

func TestSecurityHeaders(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, cacheControl, handlerSets, want string
	}{
		{"none", "", "", ""},
		{"default", "no-store", "", "no-store"},
		{"handler wins", "no-store", "no-cache, no-transform", "no-cache, no-transform"},
	} {
		h := httpmw.SecurityHeaders(tc.cacheControl)(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			if tc.handlerSets != "" {
				w.Header().Set("Cache-Control", tc.handlerSets)
			}
		}))
		w := httptest.NewRecorder()
		h.ServeHTTP(w, request("192.0.2.1:1", ""))
		if w.Header().Get("X-Content-Type-Options") != "nosniff" || w.Header().Get("Cache-Control") != tc.want {
			t.Errorf("%s: headers %v", tc.name, w.Header())
		}
	}
}

func TestChain(t *testing.T) {
	t.Parallel()
	var order []string
	piece := func(name string) func(http.Handler) http.Handler {
		return func(next http.Handler) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				order = append(order, name)
				next.ServeHTTP(w, r)
			})
		}
	}
	httpmw.Chain(piece("a"), piece("b"), piece("c"))(http.NotFoundHandler()).ServeHTTP(httptest.NewRecorder(), request("192.0.2.1:1", ""))
	if diff := cmp.Diff([]string{"a", "b", "c"}, order); diff != "" {
		t.Errorf("order (-want +got):\n%s", diff)
	}
}

// limiter refuses after allow calls and records keys and costs.
type limiter struct {
	mu    sync.Mutex
	allow int
	wait  time.Duration
	err   error
	calls []string
}

func (l *limiter) Allow(_ context.Context, key string, cost int) (bool, time.Duration, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.calls = append(l.calls, key+" "+strings.Repeat("+", cost))
	if l.err != nil {
		return false, 0, l.err
	}
	return len(l.calls) <= l.allow, l.wait, nil
}

// charge runs one request from remote through s and charges cost; it
// returns the answer and what the client got.
func charge(s *httpmw.Stack, remote string, cost int) (ok bool, retry int, limited bool, w *httptest.ResponseRecorder) {
	w = httptest.NewRecorder()
	s.Begin(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		q := httpmw.Of(w)
		limited = q.Limited()
		ok, retry = q.Charge(r.Context(), cost)
		_, _ = w.Write([]byte("body"))
	})).ServeHTTP(w, request(remote, ""))
	return ok, retry, limited, w
}

// TestCharge: the limiter is asked with the client's limit key and the
// cost; a refusal gives the whole seconds to wait (rounded up, at least 1)
// and a Retry-After header; no limiter, or a failing one (logged), lets
// every request through.
func TestCharge(t *testing.T) {
	t.Parallel()
	lim := &limiter{allow: 1, wait: 1500 * time.Millisecond}
	s := httpmw.New(httpmw.Config{Limiter: lim})
	if ok, _, limited, w := charge(s, "[2001:db8:1:2:3::9]:1", 3); !ok || !limited || w.Header().Get("Retry-After") != "" {
		t.Errorf("first: ok %v limited %v Retry-After %q", ok, limited, w.Header().Get("Retry-After"))
	}
	ok, retry, _, w := charge(s, "192.0.2.7:1", 1)
	if ok || retry != 2 || w.Header().Get("Retry-After") != "2" || w.Body.String() != "body" {
		t.Errorf("second: ok %v retry %d Retry-After %q", ok, retry, w.Header().Get("Retry-After"))
	}
	lim.wait = time.Millisecond
	if ok, retry, _, _ := charge(s, "192.0.2.7:1", 1); ok || retry != 1 {
		t.Errorf("third: ok %v retry %d, want a refusal of at least 1 s", ok, retry)
	}
	if diff := cmp.Diff([]string{"2001:db8:1:2:: +++", "192.0.2.7 +", "192.0.2.7 +"}, lim.calls); diff != "" {
		t.Errorf("calls (-want +got):\n%s", diff)
	}

	if ok, _, limited, _ := charge(httpmw.New(httpmw.Config{}), "192.0.2.7:1", 1); !ok || limited {
		t.Errorf("without a limiter: ok %v limited %v", ok, limited)
	}
	var l logs
	failing := httpmw.New(httpmw.Config{Logger: l.logger(), Limiter: &limiter{err: errors.New("down")}})
	if ok, _, _, _ := charge(failing, "192.0.2.7:1", 1); !ok {
		t.Error("a failing limiter refused")
	}
	want := []map[string]any{{"level": "WARN", "msg": "rate limiter failed, request let through", "error": "down"}}
	if diff := cmp.Diff(want, l.records(t)); diff != "" {
		t.Errorf("records (-want +got):\n%s", diff)
	}
}

// TestChargeNested: inside another stack, charges go to the outer
// stack's limiter.
func TestChargeNested(t *testing.T) {
	t.Parallel()
	outerLim, innerLim := &limiter{allow: 10}, &limiter{allow: 10}
	outer := httpmw.New(httpmw.Config{Limiter: outerLim})
	inner := httpmw.New(httpmw.Config{Limiter: innerLim})
	h := outer.Begin(inner.Begin(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		httpmw.Of(w).Charge(r.Context(), 1)
	})))
	h.ServeHTTP(httptest.NewRecorder(), request("192.0.2.7:1", ""))
	if len(outerLim.calls) != 1 || len(innerLim.calls) != 0 {
		t.Errorf("outer %v, inner %v", outerLim.calls, innerLim.calls)
	}
}

// TestRateLimited: the envelope of a refusal, and its status and
// Retry-After through WriteError.
func TestRateLimited(t *testing.T) {
	t.Parallel()
	w := httptest.NewRecorder()
	httpmw.WriteError(w, httpmw.RateLimited(7))
	want := `{"error":{"code":"rate_limited","message":"Too many requests from this address.","hint":"Back off for details.retry_after (7) seconds, then retry.","country":null,"registry":null,"details":{"retry_after":7}}}`
	if w.Code != http.StatusTooManyRequests || w.Header().Get("Retry-After") != "7" || w.Body.String() != want {
		t.Errorf("got %d %v\n%s", w.Code, w.Header(), w.Body)
	}
}

// TestMaxHeaderBytes: the request line and headers are counted as they
// arrive on the wire; one byte over the bound is 431, the bound itself
// passes.
func TestMaxHeaderBytes(t *testing.T) {
	t.Parallel()
	r := httptest.NewRequest(http.MethodGet, "/health", nil) // GET /health HTTP/1.1, Host: example.com
	r.Header.Set("X-Padding", "abc")
	size := len("GET /health HTTP/1.1\r\n") + len("Host: example.com\r\n") + len("X-Padding: abc\r\n")
	for _, tc := range []struct {
		limit, want int
	}{{size, http.StatusOK}, {size - 1, http.StatusRequestHeaderFieldsTooLarge}} {
		w := httptest.NewRecorder()
		httpmw.MaxHeaderBytes(tc.limit)(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {})).ServeHTTP(w, r)
		if w.Code != tc.want {
			t.Errorf("limit %d for %d bytes: %d, want %d", tc.limit, size, w.Code, tc.want)
		}
		if tc.want == http.StatusOK {
			continue
		}
		type refusal struct {
			ContentType, Connection, ContentLength, Body string
		}
		body := fmt.Sprintf(`{"error":{"code":"bad_request","message":"The request line and headers are larger than %d bytes.",`+
			`"hint":"Shorten the query or the headers: a search name is at most 256 bytes, an identifier far shorter.",`+
			`"country":null,"registry":null,"details":{}}}`, tc.limit)
		want := refusal{"application/json", "close", fmt.Sprint(len(body)), body}
		got := refusal{w.Header().Get("Content-Type"), w.Header().Get("Connection"), w.Header().Get("Content-Length"), w.Body.String()}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("refusal (-want +got):\n%s", diff)
		}
	}
}

// TestHeadersTooLargeNamesTheBound: the refusal names a bound of whole KiB
// as people write it (16 KiB), any other in bytes.
func TestHeadersTooLargeNamesTheBound(t *testing.T) {
	t.Parallel()
	got := []string{httpmw.HeadersTooLarge(16 << 10).Message, httpmw.HeadersTooLarge(1000).Message}
	want := []string{"The request line and headers are larger than 16 KiB.", "The request line and headers are larger than 1000 bytes."}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("messages (-want +got):\n%s", diff)
	}
}
