package countrytest

import (
	"errors"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	registry "github.com/companyregistry/registry"
)

// fixed is a transport that answers every request the same way and counts
// the requests; a request to the redirect target is counted apart.
type fixed struct {
	answer   Answer
	err      error
	calls    atomic.Int32
	followed atomic.Int32
}

// redirectTarget is where the redirect fault points; a module that follows
// it is caught.
const redirectTarget = "https://redirect-target.countrytest.invalid/stolen"

func (f *fixed) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Body != nil {
		_ = req.Body.Close()
	}
	if req.URL.Host == "redirect-target.countrytest.invalid" {
		f.followed.Add(1)
		return Answer{Status: http.StatusOK, Body: []byte(`{}`)}.response(req), nil
	}
	f.calls.Add(1)
	if err := req.Context().Err(); err != nil {
		return nil, err
	}
	if f.err != nil {
		return nil, f.err
	}
	return f.answer.response(req), nil
}

// fault is one way the register can fail, and the code a module must
// answer with.
type fault struct {
	name string
	tr   *fixed
	code registry.Code // "" accepts any error (a broken connection may be a plain error)
	// retryable is true when the failure must be marked Retryable.
	retryable bool
}

func faults() []fault {
	h := func(kv ...string) http.Header {
		out := http.Header{}
		for i := 0; i+1 < len(kv); i += 2 {
			out.Set(kv[i], kv[i+1])
		}
		return out
	}
	return []fault{
		{name: "500", tr: &fixed{answer: Answer{Status: http.StatusInternalServerError, Body: []byte(`{"error":"boom"}`)}},
			code: registry.CodeUpstreamError, retryable: true},
		{name: "503 HTML", tr: &fixed{answer: Answer{Status: http.StatusServiceUnavailable, Header: h("Content-Type", "text/html"), Body: []byte("<html>down</html>")}},
			code: registry.CodeUpstreamError, retryable: true},
		{name: "200 HTML", tr: &fixed{answer: Answer{Status: http.StatusOK, Header: h("Content-Type", "text/html; charset=utf-8"), Body: []byte("<html><body>proxy login</body></html>")}},
			code: registry.CodeUpstreamError},
		{name: "200 truncated JSON", tr: &fixed{answer: Answer{Status: http.StatusOK, Body: []byte(`{"name":"ACME`)}},
			code: registry.CodeUpstreamError, retryable: true},
		{name: "200 not JSON", tr: &fixed{answer: Answer{Status: http.StatusOK, Header: h("Content-Type", "application/json"), Body: []byte("not json at all")}},
			code: registry.CodeUpstreamError, retryable: true},
		{name: "302 redirect", tr: &fixed{answer: Answer{Status: http.StatusFound, Header: h("Location", redirectTarget)}},
			code: registry.CodeUpstreamError},
		{name: "429", tr: &fixed{answer: Answer{Status: http.StatusTooManyRequests, Header: h("Retry-After", "7")}},
			code: registry.CodeRateLimited},
		{name: "connection reset", tr: &fixed{err: errors.New("read tcp: connection reset by peer")}},
	}
}

// testFaults plays each failure of the register to a fresh module, for a
// lookup and a search: the module answers with an error (never a report),
// of the expected code, and never follows a redirect.
func (s *suite) testFaults(t *testing.T) {
	id := s.canonical(t, s.cfg.ValidID)
	for _, f := range faults() {
		t.Run(strings.ReplaceAll(f.name, " ", "_"), func(t *testing.T) {
			m, err := s.cfg.WithTransport(f.tr)
			if err != nil {
				t.Fatalf("WithTransport: %v", err)
			}
			ops := map[string]func() (any, error){
				"Lookup": func() (any, error) { return m.Lookup(t.Context(), id) },
			}
			if !s.cfg.LocalSearch {
				ops["Search"] = func() (any, error) { return m.Search(t.Context(), s.cfg.Query, 5) }
			}
			for op, call := range ops {
				protect(t, op, func() {
					_, err := call()
					if err == nil {
						t.Errorf("%s after %s succeeded, want an error", op, f.name)
						return
					}
					if f.code == "" {
						return
					}
					e := checkError(t, op, err, false)
					if e == nil {
						return
					}
					if e.Code != f.code {
						t.Errorf("%s after %s: code %s, want %s", op, f.name, e.Code, f.code)
					}
					if f.retryable && !e.Retryable {
						t.Errorf("%s after %s: not marked Retryable", op, f.name)
					}
					if f.code == registry.CodeRateLimited && e.RetryAfter() <= 0 {
						t.Errorf("%s after %s: no details.retry_after", op, f.name)
					}
				})
			}
			if c, ok := m.(interface{ Close() error }); ok {
				_ = c.Close()
			}
			if n := f.tr.followed.Load(); n != 0 {
				t.Errorf("the module followed a redirect %d time(s)", n)
			}
			if f.tr.calls.Load() == 0 {
				t.Error("the module built by WithTransport sent no request through the given transport")
			}
		})
	}
}
