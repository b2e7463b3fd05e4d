package webhook_test

import (
	"context"
	"errors"
	"net/netip"
	"strings"
	"sync"
	"testing"

	"github.com/companyregistry/registry/changes/webhook"
)

// fakeResolver answers each lookup with the next answer of its list (the
// last one again when the list is used up) and counts the lookups. It
// never touches the network.
type fakeResolver struct {
	mu      sync.Mutex
	answers [][]string
	calls   int
	err     error
}

func (r *fakeResolver) LookupNetIP(_ context.Context, _, _ string) ([]netip.Addr, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.calls++
	if r.err != nil {
		return nil, r.err
	}
	i := min(r.calls-1, len(r.answers)-1)
	var out []netip.Addr
	for _, s := range r.answers[i] {
		out = append(out, netip.MustParseAddr(s))
	}
	return out, nil
}

func resolver(answers ...[]string) *fakeResolver { return &fakeResolver{answers: answers} }

// TestCheckAddr: each special-purpose range, refused or allowed by the
// policy. Sources: the IANA IPv4 and IPv6 Special-Purpose Address
// Registries; AWS's instance metadata addresses 169.254.169.254 and
// fd00:ec2::254; Alibaba Cloud's 100.100.100.200.
func TestCheckAddr(t *testing.T) {
	t.Parallel()
	const (
		public  = iota // allowed always
		private        // allowed only with AllowPrivate
		never          // refused always
	)
	tests := []struct {
		addr string
		want int
	}{
		{"93.184.216.34", public},
		{"2606:2800:220:1:248:1893:25c8:1946", public},
		{"8.8.8.8", public},
		{"::ffff:8.8.8.8", public},
		{"64:ff9b::808:808", public}, // NAT64 of 8.8.8.8
		{"127.0.0.1", private},
		{"127.255.255.254", private},
		{"::1", private},
		{"10.1.2.3", private},
		{"172.16.0.1", private},
		{"172.31.255.255", private},
		{"172.32.0.1", public},
		{"192.168.1.1", private},
		{"100.64.0.1", private},
		{"100.127.255.255", private},
		{"fc00::1", private},
		{"fd12:3456::1", private},
		{"192.0.0.8", private},
		{"192.0.2.1", private},
		{"198.51.100.7", private},
		{"203.0.113.9", private},
		{"198.18.0.1", private},
		{"198.19.255.255", private},
		{"192.88.99.1", private},
		{"240.0.0.1", private},
		{"2001:db8::1", private},
		{"2002:7f00:1::1", private},
		{"2001:0:4136:e378::1", private}, // Teredo
		{"100::1", private},
		{"64:ff9b:1::1", private},
		{"fec0::1", private},
		{"::7f00:1", private}, // IPv4-compatible 127.0.0.1
		{"::ffff:127.0.0.1", private},
		{"::ffff:10.0.0.1", private},
		{"64:ff9b::7f00:1", private}, // NAT64 of 127.0.0.1
		{"169.254.169.254", never},
		{"::ffff:169.254.169.254", never},
		{"64:ff9b::a9fe:a9fe", never}, // NAT64 of 169.254.169.254
		{"fd00:ec2::254", never},
		{"100.100.100.200", never},
		{"169.254.1.1", never},
		{"fe80::1", never},
		{"fe80::1%eth0", never},
		{"0.0.0.0", never},
		{"0.1.2.3", never},
		{"::", never},
		{"::ffff:0.0.0.0", never},
		{"224.0.0.1", never},
		{"239.255.255.250", never},
		{"ff02::1", never},
		{"255.255.255.255", never},
	}
	for _, tt := range tests {
		a := netip.MustParseAddr(tt.addr)
		strict := webhook.Policy{}.CheckAddr(a)
		lax := webhook.Policy{AllowPrivate: true}.CheckAddr(a)
		if got := (strict == nil); got != (tt.want == public) {
			t.Errorf("%s: strict policy allowed = %v (%v)", tt.addr, got, strict)
		}
		if got := (lax == nil); got != (tt.want != never) {
			t.Errorf("%s: AllowPrivate allowed = %v (%v)", tt.addr, got, lax)
		}
		for _, err := range []error{strict, lax} {
			var ue *webhook.URLError
			if err != nil && !errors.As(err, &ue) {
				t.Errorf("%s: %v is not a *URLError", tt.addr, err)
			}
		}
	}
}

// TestCheckURL: what is refused before and after the name lookup, and
// with which reason; the reason never repeats the URL.
func TestCheckURL(t *testing.T) {
	t.Parallel()
	long := "https://hooks.example.com/" + strings.Repeat("a", webhook.MaxURLLength)
	tests := []struct {
		name, url string
		private   bool
		answers   []string // the resolver's answer
		reason    string   // "" for accepted; else a part of the reason
	}{
		{name: "https public", url: "https://hooks.example.com/registry?token=s3cret", answers: []string{"93.184.216.34"}},
		{name: "https public with port", url: "https://hooks.example.com:8443/x", answers: []string{"93.184.216.34"}},
		{name: "IPv6 literal public", url: "https://[2606:2800:220:1:248:1893:25c8:1946]/x"},
		{name: "http", url: "http://hooks.example.com/x", answers: []string{"93.184.216.34"}, reason: "not https"},
		{name: "http allowed", url: "http://hooks.example.com/x", private: true, answers: []string{"93.184.216.34"}},
		{name: "ftp", url: "ftp://hooks.example.com/x", reason: "scheme is not https"},
		{name: "empty", url: "", reason: "empty"},
		{name: "relative", url: "just/a/path", reason: "not an absolute URL"},
		{name: "opaque", url: "https:hooks.example.com", reason: "not an absolute URL"},
		{name: "user-info", url: "https://user:pw@hooks.example.com/x", reason: "user name or password"},
		{name: "fragment", url: "https://hooks.example.com/x#frag", reason: "fragment"},
		{name: "no host", url: "https:///x", reason: "no host"},
		{name: "bad port", url: "https://hooks.example.com:99999/x", reason: "port"},
		{name: "empty port", url: "https://hooks.example.com:/x", reason: "port is empty"},
		{name: "too long", url: long, reason: "longer than 2048 bytes"},
		{name: "loopback literal", url: "https://127.0.0.1/x", reason: "loopback"},
		{name: "loopback allowed", url: "http://127.0.0.1:8080/x", private: true},
		{name: "localhost", url: "https://localhost/x", reason: "loopback"},
		{name: "sub.localhost", url: "https://a.localhost./x", reason: "loopback"},
		{name: "metadata literal", url: "http://169.254.169.254/latest/meta-data", private: true, reason: "cloud metadata"},
		{name: "metadata IPv6", url: "https://[fd00:ec2::254]/", private: true, reason: "cloud metadata"},
		{name: "mapped metadata", url: "https://[::ffff:169.254.169.254]/", private: true, reason: "cloud metadata"},
		{name: "name resolves private", url: "https://internal.example.com/x", answers: []string{"10.0.0.5"}, reason: "a private address"},
		{name: "one of two addresses private", url: "https://mixed.example.com/x", answers: []string{"93.184.216.34", "192.168.0.1"},
			reason: "a private address"},
		{name: "name resolves link-local", url: "https://meta.example.com/x", private: true, answers: []string{"169.254.169.254"},
			reason: "never allowed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			p := webhook.Policy{AllowPrivate: tt.private, Resolver: resolver(tt.answers)}
			err := p.CheckURL(context.Background(), tt.url)
			if tt.reason == "" {
				if err != nil {
					t.Fatalf("CheckURL(%q) = %v", tt.url, err)
				}
				return
			}
			var ue *webhook.URLError
			if !errors.As(err, &ue) {
				t.Fatalf("CheckURL(%q) = %v, want a *URLError", tt.url, err)
			}
			if !strings.Contains(ue.Reason, tt.reason) {
				t.Errorf("reason %q does not say %q", ue.Reason, tt.reason)
			}
			if tt.url != "" && strings.Contains(ue.Error(), tt.url) {
				t.Errorf("the error repeats the URL: %v", ue)
			}
		})
	}
}

// TestCheckURLUnresolvable: a name that does not resolve is refused with a
// reason that says so.
func TestCheckURLUnresolvable(t *testing.T) {
	t.Parallel()
	p := webhook.Policy{Resolver: &fakeResolver{err: errors.New("no such host")}}
	err := p.CheckURL(context.Background(), "https://nowhere.example.com/x")
	var ue *webhook.URLError
	if !errors.As(err, &ue) || !strings.Contains(ue.Reason, "could not be resolved") {
		t.Errorf("CheckURL = %v", err)
	}
	p = webhook.Policy{Resolver: resolver([]string{})}
	if err := p.CheckURL(context.Background(), "https://empty.example.com/x"); !errors.As(err, &ue) {
		t.Errorf("no address: CheckURL = %v", err)
	}
}

// FuzzCheckURL: any string is accepted or refused with a *URLError, never
// a panic, and the resolver is asked only about a URL that passed the
// checks that need no lookup.
func FuzzCheckURL(f *testing.F) {
	for _, s := range []string{"https://hooks.example.com/x", "http://[::1]:80/", "https://a@b/", "https://%zz/", "https://h:0/",
		"https://[fe80::1%25eth0]/", "HTTPS://H/", "https://h/#", "\x00", "https://" + strings.Repeat("a", 3000)} {
		f.Add(s, false)
	}
	f.Fuzz(func(t *testing.T, u string, private bool) {
		p := webhook.Policy{AllowPrivate: private, Resolver: resolver([]string{"93.184.216.34"})}
		err := p.CheckURL(context.Background(), u)
		var ue *webhook.URLError
		if err != nil && !errors.As(err, &ue) {
			t.Fatalf("CheckURL(%q) = %v, not a *URLError", u, err)
		}
		if err == nil && len(u) > webhook.MaxURLLength {
			t.Fatalf("CheckURL accepted %d bytes", len(u))
		}
	})
}
