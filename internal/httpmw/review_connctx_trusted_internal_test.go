package httpmw

import (
	"context"
	"net/http/httptest"
	"net/netip"
	"testing"
	"unsafe"

	"github.com/companyregistry/registry/internal/httplog"
)

// TestReview_ConnContextUndoneByTrustedProxies: CHANGELOG says "The
// example server parses each connection's client address once, not once a
// request (httpmw.ConnContext)" and doc/decisions.md "Behind trusted
// proxies the X-Forwarded-For walk is per request as before, from the kept
// peer". With trusted proxies configured (REGISTRY_TRUSTED_PROXIES, the
// deployment behind a balancer), begin's setClientIP reads the kept peer,
// but fill then runs httplog.ClientIP(r, s.trusted) again (q.trusted is
// still false), which parses RemoteAddr and makes the address's text anew
// for every request: here for a client that is not behind any proxy, the
// same connection's text the stack without trusted proxies reuses. The
// X-Forwarded-For walk of a proxied request runs twice as well.
func TestReview_ConnContextUndoneByTrustedProxies(t *testing.T) {
	t.Parallel()
	p := httplog.NewPeer("192.0.2.7:41000")
	ctx := context.WithValue(t.Context(), connKey{}, &connState{peer: p, hasPeer: true})
	peerText := func() string {
		var w httplog.Writer
		w.SetPeer(p)
		return w.IPText()
	}()
	for _, tc := range []struct {
		name    string
		trusted []netip.Prefix
	}{
		{"no trusted proxies", nil},
		{"trusted proxies configured, direct client", []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8")}},
	} {
		s := New(Config{Trusted: tc.trusted})
		r := httptest.NewRequest("GET", "/", nil).WithContext(ctx)
		r.RemoteAddr = p.Remote()
		q := s.begin(httptest.NewRecorder(), r)
		if q.IPText() != "192.0.2.7" {
			t.Fatalf("%s: client %q, want 192.0.2.7", tc.name, q.IPText())
		}
		if unsafe.StringData(q.IPText()) != unsafe.StringData(peerText) {
			t.Errorf("%s: the request's client address was parsed and its text made again, not read from its connection's peer", tc.name)
		}
	}
}
