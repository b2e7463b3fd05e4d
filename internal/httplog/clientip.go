// Package httplog holds what the REST and MCP HTTP handlers share about a
// request: the client address behind trusted proxies, the request ID and the
// one access-log record.
package httplog

import (
	"net/http"
	"net/netip"
	"strings"
)

// ClientIP returns the address of the client: the socket peer, unless the
// peer is a trusted proxy, in which case X-Forwarded-For is read from the
// right, skipping trusted proxies, and the first other address is the client.
// An entry may carry a port, as some balancers write it ("203.0.113.9:51234",
// "[2001:db8::9]:443"), or be a bracketed IPv6 address without one. A
// malformed header from a trusted proxy leaves the peer as the client. The
// zero Addr means the peer address could not be parsed (a listener that is
// not TCP); such requests share one rate-limit bucket.
func ClientIP(r *http.Request, trusted []netip.Prefix) netip.Addr {
	return ClientIPBehind(PeerAddr(r.RemoteAddr), r, trusted)
}

// ClientIPBehind is [ClientIP] with the socket peer already parsed (see
// [Peer]).
func ClientIPBehind(peer netip.Addr, r *http.Request, trusted []netip.Prefix) netip.Addr {
	if !peer.IsValid() || !IsTrusted(peer, trusted) {
		return peer
	}
	values := r.Header.Values("X-Forwarded-For")
	for i := len(values) - 1; i >= 0; i-- {
		parts := strings.Split(values[i], ",")
		for j := len(parts) - 1; j >= 0; j-- {
			a, ok := forwardedAddr(parts[j])
			if !ok {
				return peer
			}
			if !IsTrusted(a, trusted) {
				return a
			}
		}
	}
	return peer
}

// forwardedAddr parses one X-Forwarded-For entry: an address, an address
// and port, or a bracketed IPv6 address; unmapped.
func forwardedAddr(s string) (netip.Addr, bool) {
	s = strings.TrimSpace(s)
	if a, err := netip.ParseAddr(s); err == nil {
		return a.Unmap(), true
	}
	if ap, err := netip.ParseAddrPort(s); err == nil {
		return ap.Addr().Unmap(), true
	}
	if inner, ok := strings.CutPrefix(s, "["); ok {
		if inner, ok = strings.CutSuffix(inner, "]"); ok {
			if a, err := netip.ParseAddr(inner); err == nil && a.Is6() {
				return a.Unmap(), true
			}
		}
	}
	return netip.Addr{}, false
}

// PeerAddr parses the socket peer of RemoteAddr; the zero Addr when it is
// not an IP address.
func PeerAddr(remote string) netip.Addr {
	if ap, err := netip.ParseAddrPort(remote); err == nil {
		return ap.Addr().Unmap()
	}
	if a, err := netip.ParseAddr(remote); err == nil {
		return a.Unmap()
	}
	return netip.Addr{}
}

// IsTrusted reports whether a is inside one of trusted.
func IsTrusted(a netip.Addr, trusted []netip.Prefix) bool {
	for _, p := range trusted {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// ParsePrefix parses a CIDR ("10.0.0.0/8", "fd00::/8") or a bare address
// (treated as a single host).
func ParsePrefix(s string) (netip.Prefix, error) {
	s = strings.TrimSpace(s)
	if strings.Contains(s, "/") {
		p, err := netip.ParsePrefix(s)
		if err != nil {
			return netip.Prefix{}, err
		}
		if p.Addr().Is4In6() {
			p = netip.PrefixFrom(p.Addr().Unmap(), max(0, p.Bits()-96))
		}
		return p.Masked(), nil
	}
	a, err := netip.ParseAddr(s)
	if err != nil {
		return netip.Prefix{}, err
	}
	a = a.Unmap()
	return netip.PrefixFrom(a, a.BitLen()), nil
}

// Peer is a socket peer address parsed once (a connection's, for all its
// requests): the RemoteAddr it was made of, the address and its text.
// Make it with [NewPeer].
type Peer struct {
	remote string
	addr   netip.Addr
	text   string // addr.String(); "" for the zero Addr
}

// NewPeer parses remote, a RemoteAddr, as [PeerAddr] does, and makes the
// address's text once.
func NewPeer(remote string) Peer {
	p := Peer{remote: remote, addr: PeerAddr(remote)}
	if p.addr.IsValid() {
		p.text = p.addr.String()
	}
	return p
}

// Remote returns the RemoteAddr p was made of.
func (p Peer) Remote() string { return p.remote }

// Addr returns the address, as [PeerAddr] parses it.
func (p Peer) Addr() netip.Addr { return p.addr }
