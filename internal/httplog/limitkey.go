package httplog

import "net/netip"

// LimitKey is the address a client is rate limited by, on REST and MCP
// alike: an IPv4 address, or the /64 network of an IPv6 address (one
// subscriber usually holds a whole /64).
func LimitKey(ip netip.Addr) netip.Addr {
	ip = ip.Unmap()
	if ip.Is6() {
		p, err := ip.Prefix(64)
		if err == nil {
			return p.Addr()
		}
	}
	return ip
}
