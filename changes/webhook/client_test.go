package webhook_test

import (
	"context"
	"crypto/tls"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/companyregistry/registry/changes/webhook"
)

// received is one request a test receiver got.
type received struct {
	header http.Header
	body   []byte
}

// receiver starts a TLS test server that records each request on a channel
// and answers with status.
func receiver(t *testing.T, status int) (*httptest.Server, <-chan received) {
	t.Helper()
	ch := make(chan received, 16)
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		ch <- received{r.Header.Clone(), b}
		w.WriteHeader(status)
	}))
	t.Cleanup(srv.Close)
	return srv, ch
}

func tlsConfig(srv *httptest.Server) *tls.Config {
	return srv.Client().Transport.(*http.Transport).TLSClientConfig.Clone()
}

func testKey(t *testing.T) []byte {
	t.Helper()
	k, err := webhook.ParseSecret(vectorSecret)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// TestSendSigned: the receiver gets the body as it was sent, the three
// headers, and a signature that Verify accepts.
func TestSendSigned(t *testing.T) {
	t.Parallel()
	srv, got := receiver(t, http.StatusNoContent)
	c := webhook.NewClient(webhook.ClientOptions{Policy: webhook.Policy{AllowPrivate: true}, TLSConfig: tlsConfig(srv),
		UserAgent: "test-agent"})
	defer c.CloseIdleConnections()
	at := time.Unix(1767225600, 0)
	body := []byte(`{"type":"company.name_changed","timestamp":"2026-01-01T00:00:00Z","data":{}}`)
	resp, err := c.Send(context.Background(), srv.URL+"/hook?token=x", webhook.Message{ID: "chg_1", At: at, Body: body, Key: testKey(t)})
	if err != nil {
		t.Fatal(err)
	}
	if !resp.Succeeded() || resp.StatusCode != http.StatusNoContent {
		t.Errorf("response %+v", resp)
	}
	r := <-got
	if diff := cmp.Diff(string(body), string(r.body)); diff != "" {
		t.Errorf("body (-sent +received):\n%s", diff)
	}
	want := map[string]string{"Content-Type": "application/json", "User-Agent": "test-agent", "Webhook-Id": "chg_1",
		"Webhook-Timestamp": "1767225600"}
	for k, v := range want {
		if r.header.Get(k) != v {
			t.Errorf("%s = %q, want %q", k, r.header.Get(k), v)
		}
	}
	if err := webhook.Verify(vectorSecret, r.header, r.body, at.Add(time.Minute)); err != nil {
		t.Errorf("the receiver cannot verify: %v", err)
	}
}

// TestSendRefusesWithoutAllowPrivate: with the strict policy, a plain http
// URL and a loopback https URL are refused before anything is sent.
func TestSendRefusesWithoutAllowPrivate(t *testing.T) {
	t.Parallel()
	var hits atomic.Int32
	h := http.HandlerFunc(func(http.ResponseWriter, *http.Request) { hits.Add(1) })
	plain := httptest.NewServer(h)
	defer plain.Close()
	tlsSrv := httptest.NewTLSServer(h)
	defer tlsSrv.Close()
	c := webhook.NewClient(webhook.ClientOptions{TLSConfig: tlsConfig(tlsSrv)})
	defer c.CloseIdleConnections()
	for _, u := range []string{plain.URL, tlsSrv.URL, strings.Replace(tlsSrv.URL, "127.0.0.1", "localhost", 1)} {
		_, err := c.Send(context.Background(), u, webhook.Message{ID: "x", At: time.Unix(1, 0), Key: testKey(t)})
		var se *webhook.SendError
		if !errors.As(err, &se) || !se.Blocked {
			t.Errorf("%s: Send = %v, want a blocked *SendError", u, err)
		}
	}
	if n := hits.Load(); n != 0 {
		t.Errorf("the servers got %d requests", n)
	}
}

// TestSendRebinding: the name resolved to a public address when the URL was
// checked, and resolves to loopback at the connection: the connection is
// refused and the receiver gets nothing.
func TestSendRebinding(t *testing.T) {
	t.Parallel()
	srv, got := receiver(t, http.StatusOK)
	_, port, _ := net.SplitHostPort(strings.TrimPrefix(srv.URL, "https://"))
	res := resolver([]string{"93.184.216.34"}, []string{"127.0.0.1"})
	p := webhook.Policy{Resolver: res}
	endpoint := "https://rebind.example.com:" + port + "/hook"
	if err := p.CheckURL(context.Background(), endpoint); err != nil {
		t.Fatalf("CheckURL: %v", err)
	}
	c := webhook.NewClient(webhook.ClientOptions{Policy: p, TLSConfig: tlsConfig(srv)})
	defer c.CloseIdleConnections()
	_, err := c.Send(context.Background(), endpoint, webhook.Message{ID: "x", At: time.Unix(1, 0), Key: testKey(t)})
	var se *webhook.SendError
	if !errors.As(err, &se) || !se.Blocked || !strings.Contains(se.Reason, "loopback") {
		t.Fatalf("Send = %v, want blocked as loopback", err)
	}
	if res.calls != 2 {
		t.Errorf("%d lookups, want 2 (validation, connection)", res.calls)
	}
	select {
	case r := <-got:
		t.Errorf("the receiver got a request: %v", r.header)
	default:
	}
}

// TestSendMappedLoopback: a name that resolves to ::ffff:127.0.0.1 is
// judged as 127.0.0.1.
func TestSendMappedLoopback(t *testing.T) {
	t.Parallel()
	c := webhook.NewClient(webhook.ClientOptions{Policy: webhook.Policy{Resolver: resolver([]string{"::ffff:127.0.0.1"})}})
	_, err := c.Send(context.Background(), "https://mapped.example.com/", webhook.Message{ID: "x", At: time.Unix(1, 0)})
	var se *webhook.SendError
	if !errors.As(err, &se) || !se.Blocked {
		t.Fatalf("Send = %v, want blocked", err)
	}
}

// TestSendNoRedirect: a 3xx is returned as the answer; its target is never
// requested.
func TestSendNoRedirect(t *testing.T) {
	t.Parallel()
	var targetHits atomic.Int32
	target := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { targetHits.Add(1) }))
	defer target.Close()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, target.URL, http.StatusTemporaryRedirect)
	}))
	defer srv.Close()
	c := webhook.NewClient(webhook.ClientOptions{Policy: webhook.Policy{AllowPrivate: true}})
	defer c.CloseIdleConnections()
	resp, err := c.Send(context.Background(), srv.URL, webhook.Message{ID: "x", At: time.Unix(1, 0)})
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusTemporaryRedirect || resp.Succeeded() {
		t.Errorf("response %+v", resp)
	}
	if n := targetHits.Load(); n != 0 {
		t.Errorf("the redirect target got %d requests", n)
	}
}

// TestSendIgnoresProxyEnvironment: HTTP_PROXY and HTTPS_PROXY are not used
// (a proxy would connect where the guard cannot look).
func TestSendIgnoresProxyEnvironment(t *testing.T) {
	var proxyHits atomic.Int32
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		proxyHits.Add(1)
		w.WriteHeader(http.StatusOK)
	}))
	defer proxy.Close()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusAccepted) }))
	defer srv.Close()
	t.Setenv("HTTP_PROXY", proxy.URL)
	t.Setenv("HTTPS_PROXY", proxy.URL)
	t.Setenv("NO_PROXY", "")
	c := webhook.NewClient(webhook.ClientOptions{Policy: webhook.Policy{AllowPrivate: true}})
	defer c.CloseIdleConnections()
	resp, err := c.Send(context.Background(), strings.Replace(srv.URL, "127.0.0.1", "localhost", 1), webhook.Message{ID: "x", At: time.Unix(1, 0)})
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusAccepted || proxyHits.Load() != 0 {
		t.Errorf("status %d, proxy hits %d", resp.StatusCode, proxyHits.Load())
	}
}

// TestSendRetryAfter: a 429's Retry-After in seconds is returned, bounded
// by MaxRetryAfter.
func TestSendRetryAfter(t *testing.T) {
	t.Parallel()
	tests := map[string]time.Duration{"120": 2 * time.Minute, "": 0, "soon": 0, "999999999": webhook.MaxRetryAfter}
	for v, want := range tests {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			if v != "" {
				w.Header().Set("Retry-After", v)
			}
			w.WriteHeader(http.StatusTooManyRequests)
		}))
		c := webhook.NewClient(webhook.ClientOptions{Policy: webhook.Policy{AllowPrivate: true}})
		resp, err := c.Send(context.Background(), srv.URL, webhook.Message{ID: "x", At: time.Unix(1, 0)})
		c.CloseIdleConnections()
		srv.Close()
		if err != nil || resp.StatusCode != http.StatusTooManyRequests || resp.RetryAfter != want {
			t.Errorf("Retry-After %q: %+v, %v; want %v", v, resp, err, want)
		}
	}
	// An HTTP date two hours ahead (RFC 9110, section 10.2.3).
	date := time.Now().Add(2 * time.Hour).UTC().Format(http.TimeFormat)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Retry-After", date)
		w.WriteHeader(http.StatusServiceUnavailable)
	}))
	defer srv.Close()
	c := webhook.NewClient(webhook.ClientOptions{Policy: webhook.Policy{AllowPrivate: true}})
	defer c.CloseIdleConnections()
	resp, err := c.Send(context.Background(), srv.URL, webhook.Message{ID: "x", At: time.Unix(1, 0)})
	if err != nil || resp.RetryAfter < 2*time.Hour-time.Minute || resp.RetryAfter > 2*time.Hour+time.Second {
		t.Errorf("Retry-After %s: %+v, %v", date, resp, err)
	}
}

// TestSendFailures: a refused connection and a timeout are *SendErrors
// whose text never holds the URL (its query may carry a credential).
func TestSendFailures(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closedURL := "http://" + ln.Addr().String() + "/hook?token=SECRET-TOKEN"
	ln.Close()

	release := make(chan struct{})
	slow := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { <-release }))
	defer slow.Close()
	defer close(release)

	// Only the endpoint that never answers gets a short timeout: on a
	// loaded machine the refusal could come after it and be reported as a
	// timeout.
	tests := []struct {
		url     string
		limit   time.Duration
		reason  string
		timeout bool
	}{
		{closedURL, time.Minute, "refused the connection", false},
		{slow.URL + "/hook?token=SECRET-TOKEN", 100 * time.Millisecond, "did not answer in time", true},
	}
	for _, tt := range tests {
		c := webhook.NewClient(webhook.ClientOptions{Policy: webhook.Policy{AllowPrivate: true}, Timeout: tt.limit})
		_, err := c.Send(context.Background(), tt.url, webhook.Message{ID: "x", At: time.Unix(1, 0)})
		c.CloseIdleConnections()
		var se *webhook.SendError
		if !errors.As(err, &se) {
			t.Fatalf("%s: Send = %v", tt.reason, err)
		}
		if se.Reason != "the endpoint "+tt.reason || se.Timeout != tt.timeout {
			t.Errorf("Reason %q Timeout %v, want %q %v", se.Reason, se.Timeout, tt.reason, tt.timeout)
		}
		u, _ := url.Parse(tt.url)
		if msg := err.Error(); strings.Contains(msg, "SECRET-TOKEN") || strings.Contains(msg, u.Host) {
			t.Errorf("the error shows the URL: %s", msg)
		}
	}
}

// TestSendSignedWithPreviousKey: while the previous key of a rotation
// still signs, the receiver gets two signatures, the current key's first,
// and Verify accepts the message with either secret; from the previous
// key's Until on, only the current key signs and the old secret no longer
// verifies.
func TestSendSignedWithPreviousKey(t *testing.T) {
	t.Parallel()
	srv, got := receiver(t, http.StatusNoContent)
	c := webhook.NewClient(webhook.ClientOptions{Policy: webhook.Policy{AllowPrivate: true}, TLSConfig: tlsConfig(srv)})
	defer c.CloseIdleConnections()
	const newSecret = "whsec_" + "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8="
	newKey, err := webhook.ParseSecret(newSecret)
	if err != nil {
		t.Fatal(err)
	}
	until := time.Unix(1767225600, 0)
	body := []byte(`{"type":"company.name_changed","timestamp":"2026-01-01T00:00:00Z","data":{}}`)
	for _, tc := range []struct {
		name     string
		at       time.Time
		want     []string // the signatures, in order
		verified map[string]bool
	}{
		{"a second before the end", until.Add(-time.Second),
			[]string{webhook.Sign(newKey, "chg_1", until.Add(-time.Second), body), webhook.Sign(testKey(t), "chg_1", until.Add(-time.Second), body)},
			map[string]bool{"new": true, "old": true}},
		{"at the end", until, []string{webhook.Sign(newKey, "chg_1", until, body)}, map[string]bool{"new": true, "old": false}},
	} {
		m := webhook.Message{ID: "chg_1", At: tc.at, Body: body, Key: newKey, Previous: []webhook.PreviousKey{{Key: testKey(t), Until: until}}}
		if _, err := c.Send(context.Background(), srv.URL+"/hook", m); err != nil {
			t.Fatal(err)
		}
		r := <-got
		if diff := cmp.Diff(strings.Join(tc.want, " "), r.header.Get(webhook.HeaderSignature)); diff != "" {
			t.Errorf("%s: webhook-signature (-want +got):\n%s", tc.name, diff)
		}
		verified := map[string]bool{
			"new": webhook.Verify(newSecret, r.header, r.body, tc.at) == nil,
			"old": webhook.Verify(vectorSecret, r.header, r.body, tc.at) == nil,
		}
		if diff := cmp.Diff(tc.verified, verified); diff != "" {
			t.Errorf("%s: verified with the secret (-want +got):\n%s", tc.name, diff)
		}
	}
}
