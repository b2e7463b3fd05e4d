package httplog

import (
	"net/netip"
	"testing"
)

// FuzzNewPeer: a Writer given a Peer with SetPeer holds what SetIP of the
// address PeerAddr parses gives it: the same IP and IPText, whatever the
// RemoteAddr.
func FuzzNewPeer(f *testing.F) {
	for _, s := range []string{"127.0.0.1:51234", "[::1]:443", "[::ffff:192.0.2.7]:80", "192.0.2.7", "2001:db8::9",
		"@", "", "[fe80::1%eth0]:22", "not an address"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, remote string) {
		p := NewPeer(remote)
		if p.Remote() != remote || p.Addr() != PeerAddr(remote) {
			t.Fatalf("NewPeer(%q) = %q, %v; want %q, %v", remote, p.Remote(), p.Addr(), remote, PeerAddr(remote))
		}
		var a, b Writer
		a.SetIP(PeerAddr(remote))
		b.SetPeer(p)
		if a.IP != b.IP || a.IPText() != b.IPText() {
			t.Fatalf("%q: SetPeer gives %v %q, SetIP %v %q", remote, b.IP, b.IPText(), a.IP, a.IPText())
		}
		// IP changed after SetPeer: IPText follows it, as after SetIP.
		b.IP = netip.MustParseAddr("203.0.113.1")
		if b.IPText() != "203.0.113.1" {
			t.Fatalf("IPText after a change of IP: %q", b.IPText())
		}
	})
}
