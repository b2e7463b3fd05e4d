package upstream

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/internal/testwait"
)

// testKey is a distinctive API key; no error may contain it in any form.
const testKey = "k3y-SECRET-7f9a2c"

// testAuth is the Authorization header built from testKey as Companies
// House wants it.
var testAuth = "Basic " + base64.StdEncoding.EncodeToString([]byte(testKey+":"))

// testConfig returns a Config for base with a 64-byte body limit.
func testConfig(base string) Config {
	return Config{
		Module: "xx", Country: "XX", Registry: "xreg", Name: "The X register",
		BaseURL: base, MaxBodyBytes: 64,
		RateLimitMessage: "The X register is limiting the rate of requests.",
	}
}

// newTestClient returns a Client for srv built from cfg with srv's base
// URL and HTTP client.
func newTestClient(t *testing.T, srv *httptest.Server, edit func(*Config)) *Client {
	t.Helper()
	cfg := testConfig(srv.URL + "/api/")
	cfg.HTTPClient = srv.Client()
	if edit != nil {
		edit(&cfg)
	}
	c, err := NewClient(cfg)
	if err != nil {
		t.Fatalf("NewClient: %v", err)
	}
	return c
}

// asRegistryError returns err as *registry.Error or fails the test.
func asRegistryError(t *testing.T, err error) *registry.Error {
	t.Helper()
	var e *registry.Error
	if !errors.As(err, &e) {
		t.Fatalf("error %v (%T), want *registry.Error", err, err)
	}
	return e
}

// A 200 with a JSON body is returned whole; the request goes to the base
// URL's path with the query, Accept, User-Agent and Authorization.
func TestGetSendsTheRequest(t *testing.T) {
	t.Parallel()
	type seen struct{ URI, Accept, UA, Auth string }
	got := make(chan seen, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got <- seen{r.RequestURI, r.Header.Get("Accept"), r.Header.Get("User-Agent"), r.Header.Get("Authorization")}
		w.Header().Set("Content-Type", "application/vnd.x.v2+json; charset=utf-8")
		_, _ = io.WriteString(w, `{"ok":true}`)
	}))
	t.Cleanup(srv.Close)
	c := newTestClient(t, srv, func(c *Config) { c.Authorization = testAuth; c.ContactEmail = "ops@example.org" })
	resp, err := c.Get(t.Context(), Request{Path: "/units/" + url.PathEscape("a b"), Query: url.Values{"name": {"Å & co"}}, Accept: "application/vnd.x.v2+json"})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(`{"ok":true}`, string(resp.Body)); diff != "" || resp.Status != http.StatusOK {
		t.Errorf("status %d, body (-want +got):\n%s", resp.Status, diff)
	}
	want := seen{"/api/units/a%20b?name=%C3%85+%26+co", "application/vnd.x.v2+json", UserAgent("ops@example.org"), testAuth}
	if diff := cmp.Diff(want, <-got); diff != "" {
		t.Errorf("request (-want +got):\n%s", diff)
	}

	// No query, no Accept: no "?", and Accept is application/json; no
	// Authorization without a credential.
	c = newTestClient(t, srv, nil)
	if _, err := c.Get(t.Context(), Request{Path: "/x"}); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(seen{"/api/x", "application/json", UserAgent(""), ""}, <-got); diff != "" {
		t.Errorf("plain request (-want +got):\n%s", diff)
	}
}

// A body up to the limit is read; one byte more is a retryable
// upstream_error naming the limit, and the body is not kept.
func TestGetBoundsTheBody(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n, _ := strconv.Atoi(r.URL.Query().Get("n"))
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, strings.Repeat(" ", n))
	}))
	t.Cleanup(srv.Close)
	c := newTestClient(t, srv, nil)
	resp, err := c.Get(t.Context(), Request{Query: url.Values{"n": {"64"}}})
	if err != nil || len(resp.Body) != 64 {
		t.Fatalf("64 bytes: %v, %v", resp, err)
	}
	_, err = c.Get(t.Context(), Request{Query: url.Values{"n": {"65"}}})
	e := asRegistryError(t, err)
	want := &registry.Error{Code: registry.CodeUpstreamError, Retryable: true, Country: "XX", Registry: "xreg",
		Message: "The answer of The X register is larger than 64 bytes and was not read."}
	if diff := cmp.Diff(want, e); diff != "" {
		t.Errorf("oversize body (-want +got):\n%s", diff)
	}
}

// A body that ends before its Content-Length is a retryable upstream_error
// wrapping the read error.
func TestGetBodyBreaksOff(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Length", "40")
		_, _ = io.WriteString(w, `{"half":`)
	}))
	t.Cleanup(srv.Close)
	_, err := newTestClient(t, srv, nil).Get(t.Context(), Request{})
	e := asRegistryError(t, err)
	if e.Code != registry.CodeUpstreamError || !e.Retryable || !errors.Is(err, io.ErrUnexpectedEOF) ||
		e.Message != "The answer of The X register broke off before it was complete." {
		t.Errorf("error %+v (cause %v), want a retryable upstream_error wrapping io.ErrUnexpectedEOF", e, e.Err)
	}
}

// A 200 whose Content-Type is not JSON (a proxy's HTML page) is a
// retryable upstream_error; no Content-Type, application/json and +json
// types are read.
func TestGetContentType(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header()["Content-Type"] = []string{r.URL.Query().Get("ct")}
		_, _ = io.WriteString(w, `{}`)
	}))
	t.Cleanup(srv.Close)
	c := newTestClient(t, srv, nil)
	for ct, ok := range map[string]bool{
		"": true, "application/json": true, "application/json; charset=utf-8": true, "application/hal+json": true,
		"text/html; charset=utf-8": false, "text/plain": false, "application/xml": false, "nonsense/": false,
	} {
		_, err := c.Get(t.Context(), Request{Query: url.Values{"ct": {ct}}})
		if ok {
			if err != nil {
				t.Errorf("Content-Type %q: %v", ct, err)
			}
			continue
		}
		if e := asRegistryError(t, err); e.Code != registry.CodeUpstreamError || !e.Retryable || !strings.Contains(e.Message, "not JSON") {
			t.Errorf("Content-Type %q: %+v, want a retryable upstream_error", ct, e)
		}
	}
}

// A redirect is answered as it is, never followed (the target is not
// called), and StatusError makes it a final upstream_error; the caller's
// client keeps its own redirect policy.
func TestGetRefusesRedirects(t *testing.T) {
	t.Parallel()
	var targetHits atomic.Int32
	target := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		targetHits.Add(1)
		_, _ = io.WriteString(w, `{}`)
	}))
	t.Cleanup(target.Close)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, target.URL+"/stolen", http.StatusFound)
	}))
	t.Cleanup(srv.Close)
	caller := srv.Client()
	c := newTestClient(t, srv, func(c *Config) { c.HTTPClient = caller; c.Authorization = testAuth })
	resp, err := c.Get(t.Context(), Request{Path: "/x"})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Status != http.StatusFound || resp.Body != nil {
		t.Fatalf("response %d with %d body bytes, want 302 without a body", resp.Status, len(resp.Body))
	}
	if n := targetHits.Load(); n != 0 {
		t.Errorf("the redirect target was called %d times", n)
	}
	want := &registry.Error{Code: registry.CodeUpstreamError, Country: "XX", Registry: "xreg", UpstreamStatus: http.StatusFound,
		Message: "The X register answered with the unexpected HTTP status 302."}
	if diff := cmp.Diff(want, c.StatusError(resp)); diff != "" {
		t.Errorf("StatusError (-want +got):\n%s", diff)
	}
	if caller.CheckRedirect != nil {
		t.Error("NewClient changed the caller's client")
	}
}

// StatusError: 429 is rate_limited with retry_after from Retry-After (at
// least 1, at most 3600, else 60) or from Config.RetryAfter; a 5xx is a
// retryable upstream_error; each carries the status.
func TestStatusError(t *testing.T) {
	t.Parallel()
	clocked := testConfig("https://x.test")
	clocked.Now = func() time.Time { return time.Date(2026, 10, 21, 7, 27, 0, 0, time.UTC) }
	c, err := NewClient(clocked)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		retryAfter string
		want       int
	}{
		{"", 60}, {"17", 17}, {" 17 ", 17}, {"0", 1}, {"-5", 60}, {"99999", 3600}, {"99999999999999999999", 3600},
		{"Wed, 21 Oct 2026 07:28:00 GMT", 60}, {"Wed, 21 Oct 2026 07:27:10 GMT", 10}, {"soon", 60},
	} {
		h := http.Header{}
		if tt.retryAfter != "" {
			h.Set("Retry-After", tt.retryAfter)
		}
		want := &registry.Error{Code: registry.CodeRateLimited, Country: "XX", Registry: "xreg", UpstreamStatus: 429,
			Message: "The X register is limiting the rate of requests.", Hint: "Back off for details.retry_after seconds, then retry.",
			Details: map[string]any{"retry_after": tt.want}}
		if diff := cmp.Diff(want, c.StatusError(&Response{Status: 429, Header: h})); diff != "" {
			t.Errorf("Retry-After %q (-want +got):\n%s", tt.retryAfter, diff)
		}
	}

	cfg := testConfig("https://x.test")
	cfg.RetryAfter = func(h http.Header) int { return len(h.Get("X-Wait")) }
	own, err := NewClient(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if got := own.StatusError(&Response{Status: 429, Header: http.Header{"X-Wait": {"abc"}}}).Details["retry_after"]; got != 3 {
		t.Errorf("Config.RetryAfter: retry_after = %v, want 3", got)
	}

	want := &registry.Error{Code: registry.CodeUpstreamError, Retryable: true, Country: "XX", Registry: "xreg", UpstreamStatus: 503,
		Message: "The X register answered HTTP 503."}
	if diff := cmp.Diff(want, c.StatusError(&Response{Status: 503})); diff != "" {
		t.Errorf("503 (-want +got):\n%s", diff)
	}
}

// An answer other than 200 is a Response without a body, for the module
// to judge; the body is drained, not returned.
func TestGetReturnsOtherStatuses(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "7")
		code, _ := strconv.Atoi(r.URL.Query().Get("code"))
		w.WriteHeader(code)
		_, _ = io.WriteString(w, strings.Repeat("x", 1000)) // over the limit: not read
	}))
	t.Cleanup(srv.Close)
	c := newTestClient(t, srv, nil)
	for _, code := range []int{400, 404, 410, 429, 500, 502} {
		resp, err := c.Get(t.Context(), Request{Query: url.Values{"code": {strconv.Itoa(code)}}})
		if err != nil || resp.Status != code || resp.Body != nil || resp.Header.Get("Retry-After") != "7" {
			t.Errorf("HTTP %d: %+v, %v", code, resp, err)
		}
	}
}

// A cancelled context stops a hung request; the client's error is returned
// as is, so that the Registry can classify it. The register holds the
// request until the test ends, so Get returns at all only because of the
// cancellation (a hang is reported by the wait).
func TestGetContextCancel(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	arrived := make(chan struct{}, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) {
		arrived <- struct{}{}
		select {
		case <-r.Context().Done():
		case <-release:
		}
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(release) })
	c := newTestClient(t, srv, nil)
	ctx, cancel := context.WithCancel(t.Context())
	errc := make(chan error, 1)
	go func() {
		_, err := c.Get(ctx, Request{})
		errc <- err
	}()
	testwait.Recv(t, arrived, "the request at the register")
	cancel()
	err := testwait.Recv(t, errc, "Get's return after the cancellation")
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want context.Canceled", err)
	}
	var e *registry.Error
	if errors.As(err, &e) {
		t.Errorf("a transport error became %+v; the Registry classifies it", e)
	}
}

// leakyTransport fails every request with an error that repeats its
// Authorization header and the key, as a careless proxy library might.
type leakyTransport struct{}

func (leakyTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	return nil, fmt.Errorf("proxy said no to %s (key %s)", r.Header.Get("Authorization"), testKey)
}

// leakyBody is a 200 JSON body whose read fails with an error that
// repeats the credential.
type leakyBody struct{}

func (leakyBody) RoundTrip(r *http.Request) (*http.Response, error) {
	return &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"application/json"}},
		Body: io.NopCloser(io.MultiReader(strings.NewReader("{"), errReader{errors.New("reset after " + r.Header.Get("Authorization"))})), Request: r}, nil
}

type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }

// The API key appears in no error the Client returns, in no form (the
// Authorization header, its base64 credential, the key), nor when the
// Client or an error is printed with fmt.
func TestCredentialNeverInErrors(t *testing.T) {
	t.Parallel()
	secrets := []string{testKey, testAuth, strings.TrimPrefix(testAuth, "Basic ")}
	var texts []string
	for name, rt := range map[string]http.RoundTripper{"transport": leakyTransport{}, "body": leakyBody{}} {
		cfg := testConfig("https://x.test")
		cfg.HTTPClient = &http.Client{Transport: rt}
		cfg.Authorization, cfg.Secret = testAuth, testKey
		c, err := NewClient(cfg)
		if err != nil {
			t.Fatal(err)
		}
		_, err = c.Get(t.Context(), Request{Path: "/x"})
		if err == nil {
			t.Fatalf("%s: no error", name)
		}
		texts = append(texts, err.Error(), fmt.Sprintf("%+v", err), fmt.Sprintf("%#v", err), fmt.Sprint(c), fmt.Sprintf("%+v %#v", c, c))
		redacted := false
		for e := err; e != nil; e = errors.Unwrap(e) {
			texts = append(texts, e.Error())
			redacted = redacted || strings.Contains(e.Error(), "[redacted]")
		}
		if !redacted {
			t.Errorf("%s: error %q shows no redaction in its chain", name, err)
		}
	}
	// A request that cannot be built: a NUL in the path.
	cfg := testConfig("https://x.test")
	cfg.Authorization, cfg.Secret = testAuth, testKey
	c, err := NewClient(cfg)
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Get(t.Context(), Request{Path: "/\x00"})
	if e := asRegistryError(t, err); e.Code != registry.CodeInternalError {
		t.Errorf("bad path: %+v, want internal_error", e)
	}
	texts = append(texts, err.Error())
	for _, text := range texts {
		for _, s := range secrets {
			if strings.Contains(text, s) {
				t.Errorf("%q holds the credential %q", text, s)
			}
		}
	}
}

// The Config setters check their input and name the module and option;
// Apply stops at the first error and refuses a nil option; NewClient
// checks the base URL and the body limit.
func TestConfigAndApply(t *testing.T) {
	t.Parallel()
	type opt func(*Config) error
	cfg := Config{Module: "xx", BaseURL: "https://default.test", MaxBodyBytes: 1}
	hc := &http.Client{}
	err := Apply("xx", &cfg, []opt{
		func(c *Config) error { return c.SetBaseURL(" https://mirror.test/api/ ") },
		func(c *Config) error { return c.SetHTTPClient(hc) },
		func(c *Config) error { return c.SetContactEmail("ops@example.org") },
	})
	if err != nil {
		t.Fatal(err)
	}
	if cfg.BaseURL != "https://mirror.test/api" || cfg.HTTPClient != hc || cfg.ContactEmail != "ops@example.org" {
		t.Errorf("config %+v", cfg)
	}
	for name, tt := range map[string]struct {
		opts []opt
		want string
	}{
		"nil option": {[]opt{nil}, "xx: New: nil option"},
		"base URL":   {[]opt{func(c *Config) error { return c.SetBaseURL("https://u:hunter2@x.test") }}, "xx: WithBaseURL: the base URL has user information"},
		"client":     {[]opt{func(c *Config) error { return c.SetHTTPClient(nil) }}, "xx: WithHTTPClient: nil client"},
		"e-mail":     {[]opt{func(c *Config) error { return c.SetContactEmail("Ops <o@x.test>") }}, `xx: WithContactEmail: "Ops <o@x.test>": the contact e-mail is not a plain e-mail address`},
		"first wins": {[]opt{func(*Config) error { return errors.New("first") }, nil}, "first"},
	} {
		c := cfg
		if err := Apply("xx", &c, tt.opts); err == nil || err.Error() != tt.want {
			t.Errorf("%s: error %v, want %q", name, err, tt.want)
		}
	}
	for name, cfg := range map[string]Config{
		"base URL": {Module: "xx", BaseURL: "ftp://x.test", MaxBodyBytes: 1},
		"limit":    {Module: "xx", BaseURL: "https://x.test"},
	} {
		if c, err := NewClient(cfg); err == nil {
			t.Errorf("%s: NewClient = %v, want an error", name, c)
		}
	}
}

// Decode fills v from a JSON body; anything else is a retryable
// upstream_error naming what was sent and wrapping the decoder's error.
func TestDecode(t *testing.T) {
	t.Parallel()
	c, err := NewClient(testConfig("https://x.test"))
	if err != nil {
		t.Fatal(err)
	}
	var v struct{ N int }
	if err := c.Decode([]byte(`{"N":3}`), &v, "an answer"); err != nil || v.N != 3 {
		t.Errorf("Decode = %v, N %d", err, v.N)
	}
	err = c.Decode([]byte(`{"N":"x"}`), &v, "a search answer")
	e := asRegistryError(t, err)
	var te *json.UnmarshalTypeError
	if e.Code != registry.CodeUpstreamError || !e.Retryable || !errors.As(err, &te) ||
		e.Message != "The X register sent a search answer that is not valid JSON." {
		t.Errorf("Decode of a wrong type: %+v", e)
	}
}

// New applies the options and builds the Client; an option error or a nil
// option stops it.
func TestNew(t *testing.T) {
	t.Parallel()
	type opt func(*Config) error
	c, err := New(testConfig("https://x.test"), []opt{func(c *Config) error { return c.SetBaseURL("https://mirror.test/") }})
	if err != nil || c.BaseURL() != "https://mirror.test" || c.MaxBodyBytes() != 64 {
		t.Fatalf("New = %v, %v", c, err)
	}
	if _, err := New(testConfig("https://x.test"), []opt{nil}); err == nil || err.Error() != "xx: New: nil option" {
		t.Errorf("nil option: %v", err)
	}
}

// Fail and Reject build the module's errors; Reject carries the answer's
// status.
func TestFailReject(t *testing.T) {
	t.Parallel()
	c, err := NewClient(testConfig("https://x.test"))
	if err != nil {
		t.Fatal(err)
	}
	want := &registry.Error{Code: registry.CodeNotFound, Country: "XX", Registry: "xreg", Message: "m", Hint: "h"}
	if diff := cmp.Diff(want, c.Fail(registry.CodeNotFound, "m", "h")); diff != "" {
		t.Errorf("Fail (-want +got):\n%s", diff)
	}
	want.UpstreamStatus = http.StatusGone
	if diff := cmp.Diff(want, c.Reject(&Response{Status: http.StatusGone}, registry.CodeNotFound, "m", "h")); diff != "" {
		t.Errorf("Reject (-want +got):\n%s", diff)
	}
}

// Post sends the body as a JSON document to the base URL's path, with the
// same headers as Get; the answer is handled as Get's (a bounded 200 body,
// other statuses for the module, a 3xx never followed).
func TestPostSendsTheBody(t *testing.T) {
	t.Parallel()
	type seen struct{ Method, URI, ContentType, Accept, Auth, Body string }
	got := make(chan seen, 4)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		got <- seen{r.Method, r.RequestURI, r.Header.Get("Content-Type"), r.Header.Get("Accept"), r.Header.Get("Authorization"), string(b)}
		switch r.URL.Path {
		case "/api/moved":
			http.Redirect(w, r, "/elsewhere", http.StatusFound)
		case "/api/big":
			_, _ = io.WriteString(w, `{"hits":"`+strings.Repeat("x", 100)+`"}`)
		default:
			w.Header().Set("Content-Type", "application/json; charset=UTF-8")
			_, _ = io.WriteString(w, `{"ok":true}`)
		}
	}))
	t.Cleanup(srv.Close)
	c := newTestClient(t, srv, func(c *Config) { c.Authorization = BasicAuthorization("user", "pa:ss") })
	resp, err := c.Post(t.Context(), Request{Path: "/idx/_search"}, []byte(`{"query":{"term":{"n":1}}}`))
	if err != nil {
		t.Fatal(err)
	}
	want := seen{Method: http.MethodPost, URI: "/api/idx/_search", ContentType: "application/json", Accept: "application/json",
		Auth: "Basic dXNlcjpwYTpzcw==", Body: `{"query":{"term":{"n":1}}}`}
	if diff := cmp.Diff(want, <-got); diff != "" {
		t.Errorf("request (-want +got):\n%s", diff)
	}
	if resp.Status != http.StatusOK || string(resp.Body) != `{"ok":true}` {
		t.Errorf("response %d %q", resp.Status, resp.Body)
	}

	// A nil body is sent as an empty one, still a POST.
	if _, err := c.Post(t.Context(), Request{Path: "/idx/_search"}, nil); err != nil {
		t.Fatal(err)
	}
	if s := <-got; s.Method != http.MethodPost || s.Body != "" || s.ContentType != "application/json" {
		t.Errorf("nil body: %+v", s)
	}

	resp, err = c.Post(t.Context(), Request{Path: "/moved"}, []byte(`{}`))
	<-got
	if err != nil || resp.Status != http.StatusFound {
		t.Errorf("redirect: %v %+v, want the 302 itself", err, resp)
	}
	select {
	case s := <-got:
		t.Errorf("the redirect was followed: %+v", s)
	default:
	}

	_, err = c.Post(t.Context(), Request{Path: "/big"}, []byte(`{}`))
	<-got
	if e := asRegistryError(t, err); e.Code != registry.CodeUpstreamError || !e.Retryable {
		t.Errorf("body over the limit: %+v", e)
	}
}

// BasicAuthorization is RFC 7617's header value: "Basic " and the base64
// of user, a colon and the password (RFC 7617 § 2's example).
func TestBasicAuthorization(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ user, password, want string }{
		{"Aladdin", "open sesame", "Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ=="},
		{testKey, "", testAuth},
	} {
		if got := BasicAuthorization(tt.user, tt.password); got != tt.want {
			t.Errorf("BasicAuthorization(%q, %q) = %q, want %q", tt.user, tt.password, got, tt.want)
		}
	}
}

// refusedTransport fails as a refused connection does.
type refusedTransport struct{}

func (refusedTransport) RoundTrip(*http.Request) (*http.Response, error) {
	return nil, &net.OpError{Op: "dial", Net: "tcp", Addr: &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 9},
		Err: os.NewSyscallError("connect", syscall.ECONNREFUSED)}
}

// TestRedactKeepsTheFailureClass: a password short enough to be in any
// error text ("p" is in "http") is redacted, and the redacted transport
// error is still a net.Error that errors.Is matches against the refused
// connection, so the Registry answers upstream_error (not internal_error)
// and logs the cause; %#v shows no part of the cause.
func TestRedactKeepsTheFailureClass(t *testing.T) {
	t.Parallel()
	cfg := testConfig("http://127.0.0.1:9")
	cfg.HTTPClient = &http.Client{Transport: refusedTransport{}}
	cfg.Authorization, cfg.Secret = BasicAuthorization("ops", "p"), "p"
	c, err := NewClient(cfg)
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Get(t.Context(), Request{Path: "/x"})
	var ne net.Error
	if !errors.As(err, &ne) || ne.Timeout() {
		t.Errorf("%v (%T) is not a net.Error without a timeout", err, err)
	}
	if !errors.Is(err, syscall.ECONNREFUSED) {
		t.Errorf("%v does not match ECONNREFUSED", err)
	}
	if text := err.Error() + fmt.Sprintf(" %+v", err); strings.Contains(text, "p") || !strings.Contains(text, "[redacted]") {
		t.Errorf("not redacted: %s", text)
	}
	if got := fmt.Sprintf("%#v", err); strings.Contains(got, "OpError") || strings.Contains(got, "0x") {
		t.Errorf("%%#v shows the cause: %s", got)
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		t.Errorf("the cause is handed out: %v", ue)
	}
	// A timeout stays a timeout.
	cfg.HTTPClient = &http.Client{Transport: timeoutTransport{}}
	c, err = NewClient(cfg)
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Get(t.Context(), Request{Path: "/x"})
	if !errors.As(err, &ne) || !ne.Timeout() {
		t.Errorf("%v (%T) is not a timeout", err, err)
	}
}

// timeoutTransport fails as a dial that timed out does.
type timeoutTransport struct{}

func (timeoutTransport) RoundTrip(*http.Request) (*http.Response, error) {
	return nil, &net.OpError{Op: "dial", Net: "tcp", Err: os.ErrDeadlineExceeded}
}
