package upstream

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/internal/fakeclock"
)

const (
	testClientID     = "client-id-4711"
	testClientSecret = "s3cr3t-CLIENT-9b8a"
)

// tokenServer is a token endpoint and an API on one server: /token hands
// out tok-1, tok-2, ... (answer decides the body), /api/x answers 200 to
// the newest token and 401 to any other.
type tokenServer struct {
	srv     *httptest.Server
	fetches atomic.Int32
	newest  atomic.Value  // string
	gate    chan struct{} // when not nil, /token waits for it
	answer  func(n int32) (int, string)
	forms   chan url.Values
}

func newTokenServer(t *testing.T) *tokenServer {
	t.Helper()
	ts := &tokenServer{forms: make(chan url.Values, 100)}
	ts.newest.Store("")
	ts.answer = func(n int32) (int, string) {
		return 200, fmt.Sprintf(`{"access_token":"tok-%d","scope":"x","token_type":"Bearer","expires_in":3600}`, n)
	}
	ts.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch r.URL.Path {
		case "/token":
			if r.Method != http.MethodPost || r.Header.Get("Content-Type") != "application/x-www-form-urlencoded" {
				w.WriteHeader(http.StatusMethodNotAllowed)
				return
			}
			b, _ := io.ReadAll(r.Body)
			form, _ := url.ParseQuery(string(b))
			ts.forms <- form
			n := ts.fetches.Add(1)
			if ts.gate != nil {
				<-ts.gate
			}
			status, body := ts.answer(n)
			if status == 200 {
				ts.newest.Store(fmt.Sprintf("tok-%d", n))
			}
			w.WriteHeader(status)
			_, _ = io.WriteString(w, body)
		case "/api/x":
			if r.Header.Get("Authorization") != "Bearer "+ts.newest.Load().(string) {
				w.WriteHeader(http.StatusUnauthorized)
				return
			}
			b, _ := io.ReadAll(r.Body)
			_, _ = fmt.Fprintf(w, `{"got":%q}`, b)
		}
	}))
	t.Cleanup(ts.srv.Close)
	return ts
}

// source returns a TokenSource for ts and an API client that uses it.
func (ts *tokenServer) source(t *testing.T, now func() time.Time) (*TokenSource, *Client) {
	t.Helper()
	tc, err := NewClient(Config{Module: "xx", Country: "XX", Registry: "xreg", Name: "The X token service",
		BaseURL: ts.srv.URL + "/token", HTTPClient: ts.srv.Client(), MaxBodyBytes: MaxTokenBodyBytes, Secret: testClientSecret})
	if err != nil {
		t.Fatal(err)
	}
	src := NewTokenSource(TokenConfig{Client: tc, ClientID: testClientID, ClientSecret: testClientSecret,
		Scope: "read ping", RefusedHint: "Check X_CREDENTIALS.", Now: now})
	cfg := testConfig(ts.srv.URL + "/api")
	cfg.HTTPClient, cfg.Auth, cfg.MaxBodyBytes = ts.srv.Client(), src, 1024
	api, err := NewClient(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return src, api
}

func post(t *testing.T, api *Client) *Response {
	t.Helper()
	a, err := api.Post(t.Context(), Request{Path: "/x"}, []byte(`{"id":"1"}`))
	if err != nil {
		t.Fatalf("Post: %v", err)
	}
	return a
}

// The grant is the form RFC 6749 § 4.4 describes; one token serves many
// requests until a tenth of its lifetime is left.
func TestTokenFetchedOnceAndRenewedBeforeExpiry(t *testing.T) {
	t.Parallel()
	ts := newTokenServer(t)
	clock := fakeclock.New(time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC))
	_, api := ts.source(t, clock.Now)
	for range 3 {
		if a := post(t, api); a.Status != 200 || string(a.Body) != `{"got":"{\"id\":\"1\"}"}` {
			t.Fatalf("answer %d %s", a.Status, a.Body)
		}
	}
	want := url.Values{"grant_type": {"client_credentials"}, "client_id": {testClientID}, "client_secret": {testClientSecret}, "scope": {"read ping"}}
	if diff := cmp.Diff(want, <-ts.forms); diff != "" {
		t.Errorf("token request form (-want +got):\n%s", diff)
	}
	clock.Advance(3600*time.Second - 361*time.Second)
	post(t, api)
	if n := ts.fetches.Load(); n != 1 {
		t.Fatalf("%d token requests before renewal time, want 1", n)
	}
	clock.Advance(2 * time.Second)
	post(t, api)
	if n := ts.fetches.Load(); n != 2 {
		t.Fatalf("%d token requests after renewal time, want 2", n)
	}
}

func TestTokenDefaultLifetime(t *testing.T) {
	t.Parallel()
	ts := newTokenServer(t)
	ts.answer = func(n int32) (int, string) {
		return 200, fmt.Sprintf(`{"access_token":"tok-%d","token_type":"bearer"}`, n)
	}
	clock := fakeclock.New(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	_, api := ts.source(t, clock.Now)
	post(t, api)
	clock.Advance(269 * time.Second)
	post(t, api)
	clock.Advance(2 * time.Second)
	post(t, api)
	if n := ts.fetches.Load(); n != 2 {
		t.Errorf("%d token requests, want 2 (renewed at 270 s of the default 300)", n)
	}
}

// Many callers at once while the token endpoint is slow: one request.
func TestTokenNeverFetchedTwiceAtOnce(t *testing.T) {
	t.Parallel()
	ts := newTokenServer(t)
	ts.gate = make(chan struct{})
	src, _ := ts.source(t, nil)
	var wg sync.WaitGroup
	vals := make(chan string, 16)
	for range 16 {
		wg.Go(func() {
			v, err := src.Authorization(t.Context())
			if err != nil {
				t.Errorf("Authorization: %v", err)
			}
			vals <- v
		})
	}
	// The first fetch is in the handler; the others wait for it.
	for ts.fetches.Load() == 0 {
		runtime.Gosched()
	}
	close(ts.gate)
	wg.Wait()
	close(vals)
	for v := range vals {
		if v != "Bearer tok-1" {
			t.Errorf("value %q, want Bearer tok-1", v)
		}
	}
	if n := ts.fetches.Load(); n != 1 {
		t.Errorf("%d token requests, want 1", n)
	}
}

// A 401 of the API drops the token; the request is sent once more with a
// new one. A second 401 is the module's to judge.
func TestTokenRenewedOnceOn401(t *testing.T) {
	t.Parallel()
	ts := newTokenServer(t)
	src, api := ts.source(t, nil)
	post(t, api)
	ts.newest.Store("revoked") // the register no longer accepts tok-1
	ts.answer = func(n int32) (int, string) {
		return 200, fmt.Sprintf(`{"access_token":"tok-%d","token_type":"Bearer","expires_in":3600}`, n)
	}
	if a := post(t, api); a.Status != 200 {
		t.Fatalf("after a 401: %d, want 200 with a new token", a.Status)
	}
	if n := ts.fetches.Load(); n != 2 {
		t.Errorf("%d token requests, want 2", n)
	}
	// Every token is refused: one renewal, then the 401 is returned.
	ts.answer = func(int32) (int, string) { return 200, `{"access_token":"never-accepted","expires_in":3600}` }
	ts.newest.Store("nothing")
	src.Rejected("Bearer tok-2")
	a := post(t, api)
	if a.Status != http.StatusUnauthorized {
		t.Errorf("status %d, want 401", a.Status)
	}
}

// A refused credential is a final upstream_error with the module's hint;
// a 5xx is retryable; neither the secret nor a token is in any error.
func TestTokenErrors(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name      string
		status    int
		body      string
		code      registry.Code
		retryable bool
		hint      string
	}{
		{"refused", 401, `{"error":"invalid_client","error_description":"client ` + testClientSecret + ` unknown"}`, registry.CodeUpstreamError, false, "Check X_CREDENTIALS."},
		{"bad request", 400, `{"error":"invalid_request"}`, registry.CodeUpstreamError, false, "Check X_CREDENTIALS."},
		{"5xx", 503, ``, registry.CodeUpstreamError, true, ""},
		{"429", 429, ``, registry.CodeRateLimited, false, "Back off for details.retry_after seconds, then retry."},
		{"not JSON", 200, `{"access_token":"tok-` + testClientSecret, registry.CodeUpstreamError, true, ""},
		{"no token", 200, `{"token_type":"Bearer"}`, registry.CodeUpstreamError, true, ""},
		{"not bearer", 200, `{"access_token":"abc","token_type":"mac"}`, registry.CodeUpstreamError, true, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ts := newTokenServer(t)
			ts.answer = func(int32) (int, string) { return tc.status, tc.body }
			_, api := ts.source(t, nil)
			_, err := api.Post(t.Context(), Request{Path: "/x"}, []byte(`{}`))
			e := asRegistryError(t, err)
			if e.Code != tc.code || e.Retryable != tc.retryable || e.Hint != tc.hint {
				t.Errorf("code %s retryable %t hint %q, want %s %t %q", e.Code, e.Retryable, e.Hint, tc.code, tc.retryable, tc.hint)
			}
			for _, s := range []string{testClientSecret, testClientID, "tok-"} {
				if strings.Contains(fmt.Sprintf("%v %+v", err, e), s) {
					t.Errorf("the error holds %q: %v", s, err)
				}
			}
		})
	}
}

// echoTransport fails every request with an error that quotes the request
// (its Authorization and body), as a careless proxy library might.
type echoTransport struct{}

func (echoTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	var b []byte
	if r.Body != nil {
		b, _ = io.ReadAll(r.Body)
	}
	return nil, fmt.Errorf("dial failed for %s %s auth=%q body=%q", r.Method, r.URL, r.Header.Get("Authorization"), b)
}

func TestTokenSecretNotInTransportErrors(t *testing.T) {
	t.Parallel()
	hc := &http.Client{Transport: echoTransport{}}
	tc, err := NewClient(Config{Module: "xx", Country: "XX", Registry: "xreg", Name: "T", BaseURL: "https://auth.test/token",
		HTTPClient: hc, MaxBodyBytes: MaxTokenBodyBytes, Secret: testClientSecret})
	if err != nil {
		t.Fatal(err)
	}
	src := NewTokenSource(TokenConfig{Client: tc, ClientID: testClientID, ClientSecret: testClientSecret})
	_, err = src.Authorization(t.Context())
	if err == nil || strings.Contains(err.Error(), testClientSecret) {
		t.Errorf("error %v holds the secret (or is nil)", err)
	}
	// With a token held, a transport error of the API hides it.
	src.mu.Lock()
	src.value, src.renewAt = "Bearer tok-SECRET-77", time.Now().Add(time.Hour)
	src.mu.Unlock()
	cfg := testConfig("https://api.test/v1")
	cfg.HTTPClient, cfg.Auth = hc, src
	api, err := NewClient(cfg)
	if err != nil {
		t.Fatal(err)
	}
	_, err = api.Post(t.Context(), Request{Path: "/x"}, []byte(`{}`))
	if err == nil || strings.Contains(err.Error(), "tok-SECRET-77") {
		t.Errorf("error %v holds the token (or is nil)", err)
	}
	if s := fmt.Sprintf("%v %+v %#v", src, src, src); strings.Contains(s, testClientSecret) {
		t.Errorf("fmt prints the secret: %s", s)
	}
}

// A caller that gives up while the token is fetched gets its context's
// error; the fetch goes on and serves the next caller.
func TestTokenCallerCancels(t *testing.T) {
	t.Parallel()
	ts := newTokenServer(t)
	ts.gate = make(chan struct{})
	src, _ := ts.source(t, nil)
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() {
		_, err := src.Authorization(ctx)
		done <- err
	}()
	for ts.fetches.Load() == 0 {
		runtime.Gosched()
	}
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled caller: %v, want context.Canceled", err)
	}
	close(ts.gate)
	v, err := src.Authorization(t.Context())
	if err != nil || v != "Bearer tok-1" {
		t.Errorf("next caller: %q, %v; want the token of the fetch that went on", v, err)
	}
	if n := ts.fetches.Load(); n != 1 {
		t.Errorf("%d token requests, want 1", n)
	}
}

// FuzzParseTokenAnswer: any 200 body of the token endpoint gives either a
// bearer token without blanks and a lifetime from a second to 2^31
// seconds, or one of the two fixed errors, which never quote the body.
func FuzzParseTokenAnswer(f *testing.F) {
	for _, s := range []string{
		`{"access_token":"tok-1","scope":"x","token_type":"Bearer","expires_in":3600}`,
		`{"access_token":"tok-1","expires_in":"3600"}`,
		`{"access_token":" tok 1 ","token_type":"mac"}`,
		`{"access_token":"tok-1","expires_in":-5}`,
		`{"access_token":"tok-1","expires_in":1e99}`,
		`{"access_token":null}`, `[]`, `"tok"`, ``, `{`, "\xff",
	} {
		f.Add([]byte(s))
	}
	c, err := NewClient(testConfig("https://auth.example/oauth2/token"))
	if err != nil {
		f.Fatal(err)
	}
	invalid := c.cfg.Name + " sent a token answer that is not valid JSON."
	noToken := c.cfg.Name + " sent a token answer without a bearer access token."
	f.Fuzz(func(t *testing.T, body []byte) {
		tok, life, err := parseTokenAnswer(c, body)
		if err != nil {
			e := registry.AsError(err)
			if e.Message != invalid && e.Message != noToken || e.Err != nil || e.Code != registry.CodeUpstreamError {
				t.Fatalf("%q: error %+v", body, e)
			}
			return
		}
		if tok == "" || strings.ContainsAny(tok, " \r\n\t") {
			t.Fatalf("%q: token %q", body, tok)
		}
		if life < time.Second || life >= (1<<31)*time.Second {
			t.Fatalf("%q: lifetime %v", body, life)
		}
	})
}
