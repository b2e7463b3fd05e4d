package webhook

import (
	"context"
	"errors"
	"net"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// MaxURLLength is the longest endpoint URL accepted, in bytes.
const MaxURLLength = 2048

// resolveTimeout bounds the name lookup of [Policy.CheckURL].
const resolveTimeout = 5 * time.Second

// Resolver looks a host name up; *net.Resolver is one.
type Resolver interface {
	LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error)
}

// Policy says where webhooks may go. The zero value is the safe default:
// https only, to public addresses only.
//
// Never allowed, whatever the policy: unspecified, link-local, multicast
// and broadcast addresses and the cloud metadata addresses
// (169.254.169.254, fd00:ec2::254, 100.100.100.200). Allowed only with
// AllowPrivate: plain http, loopback, private (RFC 1918, fc00::/7),
// shared (100.64.0.0/10) and the reserved, documentation and benchmarking
// ranges. An IPv4 address inside IPv6 (::ffff:a.b.c.d, 64:ff9b::a.b.c.d)
// is judged as that IPv4 address.
type Policy struct {
	// AllowPrivate lets webhooks go to plain http URLs and to loopback and
	// private addresses: for tests and for an operator whose receivers are
	// on the same network (REGISTRY_WEBHOOK_ALLOW_PRIVATE=true).
	AllowPrivate bool
	// Resolver looks host names up, at validation and at every connection;
	// nil is net.DefaultResolver.
	Resolver Resolver
}

func (p Policy) resolver() Resolver {
	if p.Resolver == nil {
		return net.DefaultResolver
	}
	return p.Resolver
}

// URLError is an endpoint URL or address that the policy refuses. Reason
// is a sentence for the caller (it never holds the URL, whose query may
// carry a credential of the receiver).
type URLError struct {
	Reason string
}

func (e *URLError) Error() string { return "webhook: the endpoint is refused: " + e.Reason }

func refuse(reason string) *URLError { return &URLError{Reason: reason} }

// CheckURL checks an endpoint URL when a watch is created or changed: an
// absolute https URL (http only with AllowPrivate) of at most
// [MaxURLLength] bytes, with a host, without user-info or fragment, whose
// host resolves only to allowed addresses. The refusal is a *[URLError].
// It does not make the URL safe for ever: the address is checked again at
// every connection, so a name that later resolves elsewhere (DNS
// rebinding) is refused then.
func (p Policy) CheckURL(ctx context.Context, raw string) error {
	u, err := p.parse(raw)
	if err != nil {
		return err
	}
	host := u.Hostname()
	if a, err := netip.ParseAddr(host); err == nil {
		return p.CheckAddr(a)
	}
	if isLocalhost(host) {
		return p.CheckAddr(netip.IPv6Loopback())
	}
	ctx, cancel := context.WithTimeout(ctx, resolveTimeout)
	defer cancel()
	addrs, err := p.resolver().LookupNetIP(ctx, "ip", host)
	if err != nil || len(addrs) == 0 {
		return refuse("its host name could not be resolved; check the spelling, or retry when its DNS answers")
	}
	for _, a := range addrs {
		if err := p.CheckAddr(a); err != nil {
			return err
		}
	}
	return nil
}

// parse checks everything of the URL that needs no lookup.
func (p Policy) parse(raw string) (*url.URL, error) {
	if raw == "" {
		return nil, refuse("it is empty; give an https URL")
	}
	if len(raw) > MaxURLLength {
		return nil, refuse("it is longer than " + strconv.Itoa(MaxURLLength) + " bytes")
	}
	u, err := url.Parse(raw)
	if err != nil || u.Opaque != "" || !u.IsAbs() {
		return nil, refuse("it is not an absolute URL such as https://hooks.example.com/registry")
	}
	switch u.Scheme {
	case "https":
	case "http":
		if !p.AllowPrivate {
			return nil, refuse("it is not https; plain http is allowed only when the operator allows private endpoints")
		}
	default:
		return nil, refuse("its scheme is not https")
	}
	if u.User != nil {
		return nil, refuse("it carries a user name or password; put a credential in the query or verify the signature instead")
	}
	if u.Fragment != "" || strings.Contains(raw, "#") {
		return nil, refuse("it has a fragment (#…), which is never sent")
	}
	if u.Hostname() == "" {
		return nil, refuse("it has no host")
	}
	if port := u.Port(); port != "" {
		if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
			return nil, refuse("its port is not a number from 1 to 65535")
		}
	} else if strings.HasSuffix(u.Host, ":") {
		return nil, refuse("its port is empty")
	}
	return u, nil
}

func isLocalhost(host string) bool {
	h := strings.ToLower(strings.TrimSuffix(host, "."))
	return h == "localhost" || strings.HasSuffix(h, ".localhost")
}

// CheckAddr checks one address against the policy; the refusal is a
// *[URLError] naming the kind of address.
func (p Policy) CheckAddr(a netip.Addr) error {
	kind, never := classify(a)
	switch {
	case kind == "":
		return nil
	case never:
		return refuse("it resolves to " + kind + " address, which is never allowed")
	case !p.AllowPrivate:
		return refuse("it resolves to " + kind + " address; only public addresses are allowed")
	}
	return nil
}

// control is the net.Dialer Control hook: it checks the address a
// connection is about to be made to, after every name lookup, so that a
// name that resolved to a public address at validation and resolves to a
// private one now is refused.
func (p Policy) control(_, address string, _ syscall.RawConn) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return refuse("the address to connect to could not be read")
	}
	return p.CheckAddr(ap.Addr())
}

type addrRange struct {
	prefix netip.Prefix
	kind   string
	never  bool
}

// ranges are the special-purpose ranges, most specific first (the metadata
// addresses before the ranges that hold them). Sources: the IANA IPv4 and
// IPv6 Special-Purpose Address Registries, and the metadata addresses of
// AWS (169.254.169.254, fd00:ec2::254) and Alibaba Cloud (100.100.100.200).
var ranges = func() []addrRange {
	never := func(p, kind string) addrRange { return addrRange{netip.MustParsePrefix(p), kind, true} }
	private := func(p, kind string) addrRange { return addrRange{netip.MustParsePrefix(p), kind, false} }
	return []addrRange{
		never("169.254.169.254/32", "a cloud metadata"),
		never("100.100.100.200/32", "a cloud metadata"),
		never("fd00:ec2::254/128", "a cloud metadata"),
		never("0.0.0.0/8", "an unspecified (this-network)"),
		never("::/128", "an unspecified"),
		never("169.254.0.0/16", "a link-local"),
		never("fe80::/10", "a link-local"),
		never("224.0.0.0/4", "a multicast"),
		never("ff00::/8", "a multicast"),
		never("255.255.255.255/32", "a broadcast"),
		private("127.0.0.0/8", "a loopback"),
		private("::1/128", "a loopback"),
		private("10.0.0.0/8", "a private"),
		private("172.16.0.0/12", "a private"),
		private("192.168.0.0/16", "a private"),
		private("fc00::/7", "a private (unique local)"),
		private("100.64.0.0/10", "a shared (carrier-grade NAT)"),
		private("192.0.0.0/24", "an IETF protocol"),
		private("192.0.2.0/24", "a documentation"),
		private("198.51.100.0/24", "a documentation"),
		private("203.0.113.0/24", "a documentation"),
		private("2001:db8::/32", "a documentation"),
		private("198.18.0.0/15", "a benchmarking"),
		private("192.88.99.0/24", "a 6to4 relay"),
		private("240.0.0.0/4", "a reserved"),
		private("::/96", "an IPv4-compatible"),
		private("100::/64", "a discard-only"),
		private("2001::/23", "an IETF protocol"),
		private("2002::/16", "a 6to4"),
		private("64:ff9b:1::/48", "a local-use NAT64"),
		private("fec0::/10", "a site-local"),
	}
}()

// classify returns the kind of a special-purpose address ("" for a public
// one) and whether it is never allowed. An IPv4 address carried in IPv6
// (mapped, or behind the well-known NAT64 prefix) is classified as itself.
func classify(a netip.Addr) (kind string, never bool) {
	if !a.IsValid() {
		return "an invalid", true
	}
	a = a.WithZone("")
	if a.Is4In6() {
		a = a.Unmap()
	}
	if a.Is6() && nat64.Contains(a) {
		b := a.As16()
		a = netip.AddrFrom4([4]byte(b[12:]))
	}
	for _, r := range ranges {
		if r.prefix.Contains(a) {
			return r.kind, r.never
		}
	}
	return "", false
}

// nat64 is the well-known NAT64 prefix (RFC 6052), whose addresses reach
// the IPv4 address in their last 32 bits.
var nat64 = netip.MustParsePrefix("64:ff9b::/96")

// errBlocked marks a connection refused by the policy, for [Client.Send].
var errBlocked = errors.New("webhook: blocked address")
