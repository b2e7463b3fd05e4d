package restserver

import (
	"net/http"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/companyregistry/registry/internal/fakeclock"
)

func newClock() *fakeclock.Clock {
	return fakeclock.New(time.Date(2026, 1, 15, 9, 0, 0, 0, time.UTC))
}

var ip1 = netip.MustParseAddr("192.0.2.1")

// TestLimiterTokenBucket: 60 at once, the 61st refused with a retry after
// one second (one token refills per second), then one per second, and a
// full bucket again after an idle minute.
func TestLimiterTokenBucket(t *testing.T) {
	t.Parallel()
	c := newClock()
	l := newLimiter(60, 1000, c.Now)
	for i := range 60 {
		if ok, _ := l.allow(ip1); !ok {
			t.Fatalf("request %d refused", i+1)
		}
	}
	ok, retry := l.allow(ip1)
	if ok || retry != 1 {
		t.Fatalf("61st: ok %v retry %d, want refused with retry 1", ok, retry)
	}
	if ok, _ := l.allow(netip.MustParseAddr("192.0.2.2")); !ok {
		t.Error("another address is refused")
	}
	c.Advance(time.Second)
	if ok, _ := l.allow(ip1); !ok {
		t.Error("refused one second later")
	}
	if ok, _ := l.allow(ip1); ok {
		t.Error("two requests allowed one second later")
	}
	c.Advance(time.Minute)
	for i := range 60 {
		if ok, _ := l.allow(ip1); !ok {
			t.Fatalf("next minute: request %d refused", i+1)
		}
	}
}

func TestLimiterRetryAfterSlowRate(t *testing.T) {
	t.Parallel()
	c := newClock()
	l := newLimiter(2, 1000, c.Now)
	l.allow(ip1)
	l.allow(ip1)
	if ok, retry := l.allow(ip1); ok || retry != 30 {
		t.Errorf("ok %v retry %d, want refused with retry 30 (2 per minute)", ok, retry)
	}
}

// TestLimiterForgetsOnlyFullBuckets: the timed rotation never forgets a
// client that has spent tokens within the last minute.
func TestLimiterForgetsOnlyFullBuckets(t *testing.T) {
	t.Parallel()
	c := newClock()
	l := newLimiter(3, 1000, c.Now)
	for range 3 {
		l.allow(ip1)
	}
	// Touch it every 30 s across several rotations: 1.5 tokens refill per
	// step, so it never has 3 again; a forgotten bucket would.
	for step := range 8 {
		c.Advance(30 * time.Second)
		l.allow(netip.MustParseAddr("198.51.100.1")) // another client in the mix
		n := 0
		for n < 10 {
			if ok, _ := l.allow(ip1); !ok {
				break
			}
			n++
		}
		if n < 1 || n > 2 {
			t.Fatalf("step %d: %d requests allowed after 30 s, want 1 or 2", step, n)
		}
	}
}

func TestLimiterKey(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"192.0.2.7":                "192.0.2.7",
		"::ffff:192.0.2.7":         "192.0.2.7",
		"2001:db8:1:2:3:4:5:6":     "2001:db8:1:2::",
		"2001:db8:1:2:ffff::1":     "2001:db8:1:2::",
		"fe80::1%eth0":             "fe80::",
		"2001:db8:1:3:0:0:0:1":     "2001:db8:1:3::",
		"::1":                      "::",
		"2001:db8:aaaa:bbbb:cc::1": "2001:db8:aaaa:bbbb::",
	} {
		if got := limiterKey(netip.MustParseAddr(in)).String(); got != want {
			t.Errorf("limiterKey(%s) = %s, want %s", in, got, want)
		}
	}
}

func TestClientIP(t *testing.T) {
	t.Parallel()
	trusted := []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8"), netip.MustParsePrefix("192.0.2.1/32")}
	tests := []struct {
		name, remote string
		xff          []string
		want         string
	}{
		{"peer", "203.0.113.5:1234", nil, "203.0.113.5"},
		{"untrusted peer ignores XFF", "203.0.113.5:1234", []string{"198.51.100.1"}, "203.0.113.5"},
		{"trusted peer", "10.1.2.3:80", []string{"198.51.100.1"}, "198.51.100.1"},
		{"right-most untrusted", "10.1.2.3:80", []string{"1.1.1.1, 198.51.100.1, 10.9.9.9"}, "198.51.100.1"},
		{"several headers", "10.1.2.3:80", []string{"1.1.1.1", "198.51.100.2, 192.0.2.1"}, "198.51.100.2"},
		{"all trusted", "10.1.2.3:80", []string{"10.2.2.2"}, "10.1.2.3"},
		{"malformed from trusted", "10.1.2.3:80", []string{"198.51.100.1, junk"}, "10.1.2.3"},
		{"mapped peer", "[::ffff:10.1.2.3]:80", []string{"198.51.100.1"}, "198.51.100.1"},
		{"ipv6 peer", "[2001:db8::1]:443", nil, "2001:db8::1"},
		{"unparseable peer", "@", nil, "invalid IP"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := &http.Request{RemoteAddr: tt.remote, Header: http.Header{}}
			for _, v := range tt.xff {
				r.Header.Add("X-Forwarded-For", v)
			}
			if got := clientIP(r, trusted).String(); got != tt.want {
				t.Errorf("clientIP = %s, want %s", got, tt.want)
			}
		})
	}
}

func TestParsePrefix(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"10.0.0.0/8":          "10.0.0.0/8",
		"10.1.2.3/8":          "10.0.0.0/8",
		" 192.0.2.1 ":         "192.0.2.1/32",
		"::ffff:10.0.0.0/104": "10.0.0.0/8",
		"fd00::/8":            "fd00::/8",
		"2001:db8::1":         "2001:db8::1/128",
	} {
		p, err := parsePrefix(in)
		if err != nil || p.String() != want {
			t.Errorf("parsePrefix(%q) = %v, %v; want %s", in, p, err, want)
		}
	}
	for _, bad := range []string{"", "x", "10.0.0.0/33", "10.0.0.0/"} {
		if _, err := parsePrefix(bad); err == nil {
			t.Errorf("parsePrefix(%q) succeeded", bad)
		}
	}
}

func FuzzClientIP(f *testing.F) {
	f.Add("10.1.2.3:80", "198.51.100.1, 10.9.9.9")
	f.Add("[::1]:1", "")
	f.Add("junk", ",,,")
	trusted := []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8"), netip.MustParsePrefix("::1/128")}
	f.Fuzz(func(t *testing.T, remote, xff string) {
		r := &http.Request{RemoteAddr: remote, Header: http.Header{"X-Forwarded-For": {xff}}}
		ip := clientIP(r, trusted)
		peer := peerAddr(remote)
		if !isTrusted(peer, trusted) && ip != peer {
			t.Errorf("untrusted peer %v: client %v", peer, ip)
		}
		if ip.IsValid() && ip.Is4In6() {
			t.Errorf("client %v is not unmapped", ip)
		}
	})
}

func FuzzRequestID(f *testing.F) {
	f.Add("abc-123")
	f.Add("")
	f.Add("a\nb")
	f.Add(strings.Repeat("x", 200))
	f.Fuzz(func(t *testing.T, in string) {
		out := requestID(in)
		if len(out) == 0 || len(out) > 128 {
			t.Fatalf("requestID(%q) = %q", in, out)
		}
		for i := 0; i < len(out); i++ {
			if c := out[i]; c <= ' ' || c >= 0x7f || c == '"' || c == '\\' || c == '<' || c == '>' {
				t.Fatalf("requestID(%q) = %q holds %q", in, out, c)
			}
		}
	})
}
