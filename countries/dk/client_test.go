package dk

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/countrytest"
	"github.com/companyregistry/registry/internal/moduletest"
)

// Every spelling of a CVR number reaches the register as one term query on
// the eight digits (a number), with the credential, without the
// participants, and shares one cache entry: four lookups, one request.
func TestLookupQuery(t *testing.T) {
	t.Parallel()
	fake := newFakeCVR(t, map[string]string{apsID: apsFile}, "")
	reg := newTestRegistry(t, fake)
	for _, input := range []string{"41774037", "DK41774037", "41 77 40 37", "dk-41.77.40.37"} {
		rep, err := reg.Lookup(t.Context(), "DK", input)
		if err != nil || rep.ID != apsID || rep.Name != "Tietgen Invest ApS" {
			t.Fatalf("Lookup(%q) = %+v, %v", input, rep, err)
		}
	}
	qs := fake.queries()
	if len(qs) != 1 {
		t.Fatalf("%d requests, want 1 (one canonical cache key)", len(qs))
	}
	want := query{Size: 1, Source: source{Excludes: []string{"Vrvirksomhed.deltagerRelation"}}}
	want.Query.Term = map[string]json.RawMessage{"Vrvirksomhed.cvrNummer": json.RawMessage(apsID)}
	if diff := cmp.Diff(want, qs[0]); diff != "" {
		t.Errorf("query (-want +got):\n%s", diff)
	}
}

// A search sends a match query on the names with as many rows as the
// Registry ranks (at least 20), the query text escaped as JSON, and only
// the fields a hit needs.
func TestSearchQuery(t *testing.T) {
	t.Parallel()
	fake := newFakeCVR(t, nil, searchFile)
	reg := newTestRegistry(t, fake)
	const q = `Assure "A/S" \ Ø`
	res, err := reg.Search(t.Context(), "DK", q, 3)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Hits) != 3 || res.Total != 4 || !res.Truncated {
		t.Errorf("hits %d, total %d, truncated %t; want 3, 4, true", len(res.Hits), res.Total, res.Truncated)
	}
	qs := fake.queries()
	if len(qs) != 1 {
		t.Fatalf("%d requests", len(qs))
	}
	want := query{Size: registry.SearchWindow, Source: source{Includes: searchIncludes}}
	want.Query.Match = map[string]string{"Vrvirksomhed.navne.navn": q}
	if diff := cmp.Diff(want, qs[0]); diff != "" {
		t.Errorf("query (-want +got):\n%s", diff)
	}
}

// A query longer than 200 characters is refused before any request.
func TestSearchTooLong(t *testing.T) {
	t.Parallel()
	fake := newFakeCVR(t, nil, searchFile)
	c := newTestCountry(t, fake)
	_, err := c.Search(t.Context(), strings.Repeat("ø", 201), 20)
	if e := moduletest.AsError(t, err); e.Code != registry.CodeBadRequest {
		t.Errorf("code %s, want bad_request", e.Code)
	}
	if n := len(fake.queries()); n != 0 {
		t.Errorf("%d requests, want none", n)
	}
}

// hitsTotal accepts both Elasticsearch forms of hits.total, and a malformed
// one leaves the total to the hits.
func TestHitsTotalForms(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		body    string
		value   int64
		set     bool
		atLeast bool
	}{
		{`{"hits":{"total":7,"hits":[]}}`, 7, true, false},
		{`{"hits":{"total":{"value":10000,"relation":"gte"},"hits":[]}}`, 10000, true, true},
		{`{"hits":{"total":{"value":"3","relation":"eq"},"hits":[]}}`, 3, true, false},
		{`{"hits":{"total":{"value":[]},"hits":[]}}`, 0, false, false},
		{`{"hits":{"total":null,"hits":[]}}`, 0, false, false},
	} {
		var a searchAnswer
		if err := json.Unmarshal([]byte(tt.body), &a); err != nil {
			t.Fatalf("%s: %v", tt.body, err)
		}
		if got := a.Hits.Total; got.Value != tt.value || got.Set != tt.set || got.AtLeast != tt.atLeast {
			t.Errorf("%s: %+v", tt.body, got)
		}
	}
}

// The register's answers a module must judge: a 401 or 403 names the
// credential's variable, a 400 is bad_request for a search and an
// upstream_error for a lookup, a partial answer and a lookup answer
// without the requested company are retryable upstream_errors, 404 (no
// index) and 429 are mapped by the shared client.
func TestStatuses(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name      string
		answer    countrytest.Answer
		search    bool
		code      registry.Code
		retryable bool
		hint      string
	}{
		{"401", countrytest.Answer{Status: 401, Header: http.Header{"Content-Type": {"text/html"}}, Body: recording(t, error401File)}, false,
			registry.CodeUpstreamError, false, CredentialsEnv},
		{"403 search", countrytest.Answer{Status: 403}, true, registry.CodeUpstreamError, false, CredentialsEnv},
		{"400 search", countrytest.Answer{Status: 400, Body: []byte(`{"status":400}`)}, true, registry.CodeBadRequest, false, "simpler name"},
		{"400 lookup", countrytest.Answer{Status: 400, Body: []byte(`{"status":400}`)}, false, registry.CodeUpstreamError, false, ""},
		{"404 no index", countrytest.Answer{Status: 404, Body: []byte(`{"status":404}`)}, false, registry.CodeUpstreamError, false, ""},
		{"429", countrytest.Answer{Status: 429, Header: http.Header{"Retry-After": {"5"}}}, false, registry.CodeRateLimited, false, "retry_after"},
		{"partial", countrytest.Answer{Body: recording(t, partialFile)}, false, registry.CodeUpstreamError, true, ""},
		{"another company", countrytest.Answer{Body: recording(t, fondFile)}, false, registry.CodeUpstreamError, true, ""},
		{"no name", countrytest.Answer{Body: []byte(`{"hits":{"total":1,"hits":[{"_source":{"Vrvirksomhed":{"cvrNummer":41774037}}}]}}`)}, false,
			registry.CodeUpstreamError, true, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c := newTestCountry(t, countrytest.NewReplay(map[string]countrytest.Answer{"/cvr-permanent" + searchPath: tt.answer}))
			var err error
			if tt.search {
				_, err = c.Search(t.Context(), "assure", 20)
			} else {
				_, err = c.Lookup(t.Context(), apsID)
			}
			e := moduletest.AsError(t, err)
			if e.Code != tt.code || e.Retryable != tt.retryable || e.Country != "DK" || e.Registry != "cvr" {
				t.Errorf("%+v, want %s retryable %t", e, tt.code, tt.retryable)
			}
			if b, _ := json.Marshal(e); !strings.Contains(string(b), tt.hint) {
				t.Errorf("envelope %s lacks %q", b, tt.hint)
			}
			if tt.answer.Status != 0 && e.UpstreamStatus != tt.answer.Status {
				t.Errorf("upstream status %d, want %d", e.UpstreamStatus, tt.answer.Status)
			}
		})
	}
}

// Without a credential the module exists, validates, and is not ready: the
// Registry does not list it, and every call is an upstream_error naming
// CVR_CREDENTIALS, without a request.
func TestNotReadyWithoutCredential(t *testing.T) {
	t.Parallel()
	rp := countrytest.NewReplay(nil)
	c := moduletest.Build(t, New, WithBaseURL(testBase), WithHTTPClient(&http.Client{Transport: rp}), WithCredentials("  "))
	if e := moduletest.AsError(t, c.Ready()); e.Code != registry.CodeUpstreamError || !strings.Contains(e.Hint, CredentialsEnv) {
		t.Errorf("Ready() = %+v", e)
	}
	if _, err := c.Lookup(t.Context(), apsID); moduletest.AsError(t, err).Code != registry.CodeUpstreamError {
		t.Errorf("Lookup without a credential: %v", err)
	}
	reg := moduletest.NewRegistry(t, c)
	if got := reg.Countries().Countries; len(got) != 0 {
		t.Errorf("countries %+v, want none", got)
	}
	for _, call := range []func() error{
		func() error { _, err := reg.Lookup(t.Context(), "DK", apsID); return err },
		func() error { _, err := reg.Search(t.Context(), "DK", "assure", 5); return err },
		func() error { _, err := reg.Roles(t.Context(), "DK", apsID); return err },
		func() error {
			_, err := reg.Deadlines(t.Context(), "DK", apsID, registry.NewDate(2026, 1, 1))
			return err
		},
	} {
		if e := registry.AsError(call()); e == nil || e.Code != registry.CodeUpstreamError || !strings.Contains(e.Hint, CredentialsEnv) {
			t.Errorf("call without a credential: %+v", e)
		}
	}
	if v, err := reg.Validate("DK", "DK 41774037"); err != nil || !v.Valid {
		t.Errorf("Validate without a credential: %+v %v", v, err)
	}
	if rp.Calls() != 0 {
		t.Errorf("%d requests without a credential", rp.Calls())
	}
	if info := c.Info(); !info.RequiresAPIKey || info.APIKeyEnv == nil || *info.APIKeyEnv != CredentialsEnv {
		t.Errorf("Info %+v", info)
	}
}

// A credential that is not username:password is refused by New, and the
// error does not repeat it.
func TestWithCredentialsRefusesMalformed(t *testing.T) {
	t.Parallel()
	for _, cred := range []string{"no-colon-S3CRET", ":S3CRET", "user:", ":"} {
		_, err := New(WithCredentials(cred))
		if err == nil {
			t.Errorf("%q accepted", cred)
			continue
		}
		if strings.Contains(err.Error(), "S3CRET") || !strings.HasPrefix(err.Error(), "dk: WithCredentials:") {
			t.Errorf("%q: error %q", cred, err)
		}
	}
	if _, err := New(WithCredentials("user:pa:ss")); err != nil {
		t.Errorf("a password with a colon: %v", err)
	}
}

// leakyTransport fails with an error whose text repeats the request's
// Authorization header and the password, as a careless proxy might.
type leakyTransport struct{}

func (leakyTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	return nil, fmt.Errorf("proxy refused %s (%s, user %s)", r.Header.Get("Authorization"), testPassword, testCredentials)
}

// The credential appears in no error, log line or printed value, in any
// form: the password, "user:password", its base64 and the header.
func TestCredentialNeverLeaks(t *testing.T) {
	t.Parallel()
	var logs moduletest.SyncBuffer
	c := newTestCountry(t, leakyTransport{})
	reg := moduletest.NewRegistry(t, c, registry.WithLogger(slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))))
	var texts []string
	for _, call := range []func() error{
		func() error { _, err := reg.Lookup(t.Context(), "DK", apsID); return err },
		func() error { _, err := reg.Search(t.Context(), "DK", "assure", 5); return err },
		func() error { _, err := c.Lookup(t.Context(), apsID); return err },
	} {
		err := call()
		if err == nil {
			t.Fatal("no error")
		}
		b, _ := json.Marshal(err)
		texts = append(texts, err.Error(), fmt.Sprintf("%+v %#v", err, err), string(b))
		for e := err; e != nil; e = errors.Unwrap(e) {
			texts = append(texts, e.Error())
		}
	}
	texts = append(texts, logs.String(), fmt.Sprintf("%v %+v %#v", c, c, c))
	enc := base64.StdEncoding.EncodeToString([]byte(testCredentials))
	for _, text := range texts {
		for _, secret := range []string{testPassword, testCredentials, enc} {
			if strings.Contains(text, secret) {
				t.Errorf("%q holds the credential %q", text, secret)
			}
		}
	}
	if !bytes.Contains([]byte(strings.Join(texts, " ")), []byte("[redacted]")) {
		t.Error("no redaction seen: the test did not exercise it")
	}
}

// refusedTransport fails every request as a refused connection does: the
// dial error, which names the address it dialled. http.Client wraps it in
// a *url.Error that also holds the URL.
type refusedTransport struct{}

func (refusedTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	return nil, &net.OpError{Op: "dial", Net: "tcp", Addr: &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 9},
		Err: os.NewSyscallError("connect", syscall.ECONNREFUSED)}
}

// TestTransportFailureIsUpstreamError: a refused connection to the CVR
// distribution is a retryable upstream_error, as for every other country,
// also when the credential's password is a string that the error's text
// holds ("p" is in "http" and "dial tcp"): the redaction of the credential
// used to turn it into a plain error, which the Registry answers as
// internal_error. The text is still redacted.
func TestTransportFailureIsUpstreamError(t *testing.T) {
	t.Parallel()
	for _, cred := range []string{testCredentials, "ops:p", "ops:127.0.0.1"} {
		var logs moduletest.SyncBuffer
		c := newTestCountry(t, refusedTransport{}, WithCredentials(cred))
		reg := moduletest.NewRegistry(t, c, registry.WithLogger(slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))))
		_, err := reg.Lookup(t.Context(), "DK", apsID)
		e := moduletest.AsError(t, err)
		if e.Code != registry.CodeUpstreamError || !e.Retryable {
			t.Errorf("credential %q: lookup failed with %s (retryable %t), want a retryable upstream_error: %v", cred, e.Code, e.Retryable, err)
		}
		if !errors.Is(err, syscall.ECONNREFUSED) {
			t.Errorf("credential %q: the refused connection is not in the chain: %v", cred, err)
		}
		if !strings.Contains(logs.String(), "connection refused") {
			t.Errorf("credential %q: the log does not name the cause:\n%s", cred, logs.String())
		}
		if _, password, _ := strings.Cut(cred, ":"); len(password) > 1 { // "p" is in any text
			for e := err; e != nil; e = errors.Unwrap(e) {
				if strings.Contains(e.Error(), password) {
					t.Errorf("credential %q: %q holds the password", cred, e.Error())
				}
			}
		}
	}
}
