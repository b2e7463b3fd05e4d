package restserver

import (
	"net/http"
	"net/http/httptest"
	"net/netip"
	"time"

	"github.com/companyregistry/registry/internal/httplog"
	"github.com/companyregistry/registry/internal/httpmw"
)

// The tests of the client address and request ID predate internal/httplog.
func clientIP(r *http.Request, trusted []netip.Prefix) netip.Addr {
	return httplog.ClientIP(r, trusted)
}
func peerAddr(remote string) netip.Addr                   { return httplog.PeerAddr(remote) }
func isTrusted(a netip.Addr, trusted []netip.Prefix) bool { return httplog.IsTrusted(a, trusted) }
func parsePrefix(s string) (netip.Prefix, error)          { return httplog.ParsePrefix(s) }
func requestID(in string) string                          { return httplog.RequestID(in) }
func limiterKey(ip netip.Addr) netip.Addr                 { return httplog.LimitKey(ip) }

// limiter drives the built-in limiter of WithRateLimit and WithMaxClients
// through the code path of a request: a charge of the middleware stack
// (the tests predate the move to ratelimit.Local). It is not safe for
// concurrent use.
type limiter struct {
	h     http.Handler
	n     int
	ok    bool
	retry int
}

func newLimiter(perMinute, maxClients int, now func() time.Time) *limiter {
	o := options{rateLimit: perMinute, maxClients: maxClients, now: now}
	lim := o.rateLimiter()
	l := &limiter{}
	l.h = httpmw.New(httpmw.Config{Limiter: lim, Now: now}).Begin(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		l.ok, l.retry = httpmw.Of(w).Charge(r.Context(), l.n)
	}))
	return l
}

// allowN charges n requests of the client at key.
func (l *limiter) allowN(key netip.Addr, n int) (ok bool, retryAfter int) {
	l.n = n
	r := httptest.NewRequest(http.MethodGet, "/v1/countries", nil)
	r.RemoteAddr = netip.AddrPortFrom(key, 1234).String()
	l.h.ServeHTTP(httptest.NewRecorder(), r)
	return l.ok, l.retry
}

func (l *limiter) allow(key netip.Addr) (ok bool, retryAfter int) { return l.allowN(key, 1) }
