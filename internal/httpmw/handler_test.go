package httpmw_test

import (
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/companyregistry/registry/internal/httpmw"
)

// TestHandlerIsTheChain: Stack.Handler answers and logs as
// Chain(SecurityHeaders, Begin, AccessLog, Recover) does, alone and nested
// (an outer stack around a mux that mounts an inner one, either kind
// inside either kind), for an answer, a panic before the response started,
// a panic after it, http.ErrAbortHandler and a refused charge.
func TestHandlerIsTheChain(t *testing.T) {
	t.Parallel()
	handlers := map[string]http.HandlerFunc{
		"answer": func(w http.ResponseWriter, _ *http.Request) {
			httpmw.Of(w).AddAttr(slog.Bool("inner", true))
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(`{"ok":true}`))
		},
		"panic": func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("ETag", `"x"`)
			panic("boom")
		},
		"late panic": func(w http.ResponseWriter, _ *http.Request) {
			w.WriteHeader(http.StatusAccepted)
			panic("late")
		},
		"abort": func(http.ResponseWriter, *http.Request) { panic(http.ErrAbortHandler) },
		"charge": func(w http.ResponseWriter, r *http.Request) {
			if ok, retry := httpmw.Of(w).Charge(r.Context(), 5); !ok {
				httpmw.WriteError(w, httpmw.RateLimited(retry))
			}
		},
	}
	type outcome struct {
		Status    int
		Header    http.Header
		Body      string
		Recovered string
		Outer     []map[string]any
		Inner     []map[string]any
	}
	// run serves one request through a stack built by compose (false: the
	// Chain, true: Handler) for the outer and the inner stacks.
	run := func(name string, nested, outerHandler, innerHandler bool) outcome {
		var outerLogs, innerLogs logs
		lim := &limiter{wait: 3 * time.Second} // refuses every charge
		outer := httpmw.New(httpmw.Config{Logger: outerLogs.logger(), Now: newClock().Now, Limiter: lim})
		inner := httpmw.New(httpmw.Config{Logger: innerLogs.logger(), Now: newClock().Now})
		compose := func(s *httpmw.Stack, handler bool, cc, msg string, next http.Handler) http.Handler {
			if handler {
				return s.Handler(cc, msg, next)
			}
			return httpmw.Chain(httpmw.SecurityHeaders(cc), s.Begin, s.AccessLog(msg), s.Recover)(next)
		}
		mux := http.NewServeMux()
		mux.Handle("GET /v1/{country}/company/{id}", handlers[name])
		h := compose(outer, outerHandler, "no-store", "request", mux)
		if nested {
			app := http.NewServeMux()
			app.Handle("/registry/", http.StripPrefix("/registry", compose(inner, innerHandler, "", "rest request", mux)))
			h = compose(outer, outerHandler, "no-store", "request", app)
		}
		path := "/v1/NO/company/923609016"
		if nested {
			path = "/registry" + path
		}
		r := httptest.NewRequest(http.MethodGet, path, nil)
		r.Header.Set("X-Request-Id", "rid-1")
		w := httptest.NewRecorder()
		var o outcome
		func() {
			defer func() { o.Recovered = fmt.Sprint(recover()) }()
			h.ServeHTTP(w, r)
		}()
		o.Status, o.Header, o.Body = w.Code, w.Header(), w.Body.String()
		o.Outer, o.Inner = outerLogs.records(t, "stack"), innerLogs.records(t, "stack")
		return o
	}
	for name := range handlers {
		for _, nested := range []bool{false, true} {
			want := run(name, nested, false, false)
			if len(want.Outer) == 0 {
				t.Fatalf("%s: no record", name)
			}
			for _, kinds := range [][2]bool{{true, true}, {true, false}, {false, true}} {
				if !nested && kinds[1] != kinds[0] {
					continue
				}
				got := run(name, nested, kinds[0], kinds[1])
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("%s, nested %v, Handler outer %v inner %v (-chain +handler):\n%s", name, nested, kinds[0], kinds[1], diff)
				}
			}
		}
	}
}
