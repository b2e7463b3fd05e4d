package restserver

import (
	"net/http"
	"net/netip"

	"github.com/companyregistry/registry/internal/httplog"
)

// The tests of the client address and request ID predate internal/httplog.
func clientIP(r *http.Request, trusted []netip.Prefix) netip.Addr {
	return httplog.ClientIP(r, trusted)
}
func peerAddr(remote string) netip.Addr                   { return httplog.PeerAddr(remote) }
func isTrusted(a netip.Addr, trusted []netip.Prefix) bool { return httplog.IsTrusted(a, trusted) }
func parsePrefix(s string) (netip.Prefix, error)          { return httplog.ParsePrefix(s) }
func requestID(in string) string                          { return httplog.RequestID(in) }

// size returns the number of buckets held.
func (l *limiter) size() int {
	n := 0
	for i := range l.shards {
		sh := &l.shards[i]
		sh.mu.Lock()
		n += len(sh.cur) + len(sh.prev)
		sh.mu.Unlock()
	}
	return n
}
