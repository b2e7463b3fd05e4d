package httpmw_test

import (
	"net/http"
	"net/http/httptest"
	"net/netip"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/companyregistry/registry/internal/httpmw"
)

// TestConnContextClientIP: over a server whose ConnContext is
// httpmw.ConnContext, the stack's client address and its text are what
// they are without it, for a direct client, behind a trusted proxy that
// names the client in X-Forwarded-For, and for a request whose RemoteAddr
// a handler before the stack rewrote (read from the request, not from the
// connection).
func TestConnContextClientIP(t *testing.T) {
	t.Parallel()
	type seen struct{ IP, Text string }
	run := func(t *testing.T, trusted []netip.Prefix, rewrite string, xff string) (with, without seen) {
		t.Helper()
		for i, cc := range []bool{true, false} {
			var got seen
			stack := httpmw.New(httpmw.Config{Trusted: trusted})
			h := stack.Handler("", "request", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				q := httpmw.Of(w)
				got = seen{q.IP.String(), q.IPText()}
			}))
			outer := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if rewrite != "" {
					r.RemoteAddr = rewrite
				}
				h.ServeHTTP(w, r)
			})
			srv := httptest.NewUnstartedServer(outer)
			if cc {
				srv.Config.ConnContext = httpmw.ConnContext
			}
			srv.Start()
			req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, srv.URL, nil)
			if xff != "" {
				req.Header.Set("X-Forwarded-For", xff)
			}
			// Two requests on one connection: the second reads the
			// connection's peer again.
			for range 2 {
				resp, err := srv.Client().Do(req)
				if err != nil {
					t.Fatal(err)
				}
				_ = resp.Body.Close()
			}
			srv.Close()
			if i == 0 {
				with = got
			} else {
				without = got
			}
		}
		return with, without
	}
	for _, tc := range []struct {
		name         string
		trusted      []netip.Prefix
		rewrite, xff string
		want         seen
	}{
		{"direct", nil, "", "", seen{"127.0.0.1", "127.0.0.1"}},
		{"trusted proxy", []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}, "", "203.0.113.9", seen{"203.0.113.9", "203.0.113.9"}},
		{"untrusted forwarder", nil, "", "203.0.113.9", seen{"127.0.0.1", "127.0.0.1"}},
		{"rewritten RemoteAddr", nil, "198.51.100.4:1234", "", seen{"198.51.100.4", "198.51.100.4"}},
		{"rewritten to no address", nil, "pipe", "", seen{"invalid IP", ""}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			with, without := run(t, tc.trusted, tc.rewrite, tc.xff)
			if diff := cmp.Diff(tc.want, with); diff != "" {
				t.Errorf("with ConnContext (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.want, without); diff != "" {
				t.Errorf("without ConnContext (-want +got):\n%s", diff)
			}
		})
	}
}
