package upstream

import (
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"
	"time"

	registry "github.com/companyregistry/registry"
)

func TestParseBaseURL(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in      string
		want    string // "" for an error
		secrets string // must not appear in the error
	}{
		{in: "https://api.test", want: "https://api.test"},
		{in: " http://localhost:8080/api/ ", want: "http://localhost:8080/api"},
		{in: "https://api.test/a//", want: "https://api.test/a"},
		{in: "/api"},
		{in: "api.test"},
		{in: "ftp://api.test"},
		{in: "https://"},
		{in: "https://user:hunter2@api.test", secrets: "hunter2"},
		{in: "https://hunter2@api.test", secrets: "hunter2"},
		{in: "https://api.test/?key=hunter2", secrets: "hunter2"},
		{in: "https://api.test/?"},
		{in: "https://api.test/#frag"},
		{in: "https://api.test/\x7f"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			t.Parallel()
			u, err := ParseBaseURL(tt.in)
			if tt.want == "" {
				if err == nil {
					t.Fatalf("ParseBaseURL(%q) = %v, want an error", tt.in, u)
				}
				if tt.secrets != "" && strings.Contains(err.Error(), tt.secrets) {
					t.Errorf("error %q repeats the secret", err)
				}
				return
			}
			if err != nil {
				t.Fatalf("ParseBaseURL(%q): %v", tt.in, err)
			}
			if got := u.String(); got != tt.want {
				t.Errorf("ParseBaseURL(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestValidateContactEmail(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in string
		ok bool
	}{
		{"", true},
		{"ops@example.org", true},
		{"first.last+tag@sub.example.org", true},
		{"Ops <ops@example.org>", false},
		{"<ops@example.org>", false},
		{"ops@example.org (ops)", false},
		{"ops@example.org\r\nX-Evil: 1", false},
		{" ops@example.org", false},
		{"ops", false},
		{"ops@", false},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			t.Parallel()
			if err := ValidateContactEmail(tt.in); (err == nil) != tt.ok {
				t.Errorf("ValidateContactEmail(%q) = %v, want ok %v", tt.in, err, tt.ok)
			}
		})
	}
}

func TestUserAgent(t *testing.T) {
	t.Parallel()
	base := "companyregistry/" + registry.Version + " (+https://github.com/companyregistry/registry"
	if got, want := UserAgent(""), base+")"; got != want {
		t.Errorf("UserAgent(\"\") = %q, want %q", got, want)
	}
	if got, want := UserAgent("ops@example.org"), base+"; ops@example.org)"; got != want {
		t.Errorf("UserAgent(e-mail) = %q, want %q", got, want)
	}
}

func TestNoRedirectsCopies(t *testing.T) {
	t.Parallel()
	orig := &http.Client{Timeout: 7}
	c := NoRedirects(orig)
	if c == orig || orig.CheckRedirect != nil {
		t.Fatal("NoRedirects changed the caller's client")
	}
	if c.Timeout != 7 {
		t.Errorf("Timeout = %v, want the caller's 7", c.Timeout)
	}
	if err := c.CheckRedirect(nil, nil); !errors.Is(err, http.ErrUseLastResponse) {
		t.Errorf("CheckRedirect = %v, want http.ErrUseLastResponse", err)
	}
	if z := NoRedirects(nil); z == nil || z.CheckRedirect == nil {
		t.Error("NoRedirects(nil) did not return a client that refuses redirects")
	}
}

func TestIsJSON(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want bool
	}{
		{"", true},
		{"  ", true},
		{"application/json", true},
		{"application/json; charset=utf-8", true},
		{"Application/JSON", true},
		{"application/vnd.brreg.enhetsregisteret.enhet.v2+json;charset=UTF-8", true},
		{"application/problem+json", true},
		{"text/html; charset=utf-8", false},
		{"text/json+json", false},
		{"application/jsonp", false},
		{"application/json; =broken", false},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			t.Parallel()
			if got := IsJSON(tt.in); got != tt.want {
				t.Errorf("IsJSON(%q) = %v, want %v", tt.in, got, tt.want)
			}
		})
	}
}

func TestReadBody(t *testing.T) {
	t.Parallel()
	broken := errors.New("connection reset")
	tests := []struct {
		name    string
		r       io.Reader
		want    string
		wantErr error
	}{
		{name: "empty", r: strings.NewReader(""), want: ""},
		{name: "at the limit", r: strings.NewReader("12345"), want: "12345"},
		{name: "one byte over", r: strings.NewReader("123456"), wantErr: ErrTooLarge()},
		{name: "far over", r: strings.NewReader(strings.Repeat("x", 1<<20)), wantErr: ErrTooLarge()},
		{name: "broken off", r: iotest.ErrReader(broken), wantErr: broken},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := ReadBody(tt.r, 5)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("ReadBody error = %v, want %v", err, tt.wantErr)
			}
			if err == nil && string(got) != tt.want {
				t.Errorf("ReadBody = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestDiscardIsBounded(t *testing.T) {
	t.Parallel()
	r := strings.NewReader(strings.Repeat("x", 2*DrainBytes))
	Discard(r)
	if got := r.Len(); got != DrainBytes {
		t.Errorf("unread after Discard = %d, want %d", got, DrainBytes)
	}
}

// TestRetryAfter: delay-seconds or an HTTP-date (RFC 9110, section
// 10.2.3) counted from the clock, at least 1 and at most the ceiling; a
// number too large to parse is the ceiling (issue 24, item 6: it was the
// default, 60 s), a date is read (it was the default), a negative or
// malformed value is the default.
func TestRetryAfter(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 10, 21, 7, 27, 0, 0, time.UTC)
	tests := []struct {
		in   string
		want int
	}{
		{"", 60},
		{"120", 120},
		{" 17 ", 17},
		{"0", 1},
		{"-5", 60},
		{"+5", 60},
		{"3600", 300},
		{"99999999999999999999", 300},
		{"Wed, 21 Oct 2026 07:28:00 GMT", 60},
		{"Wed, 21 Oct 2026 07:27:30 GMT", 30},
		{"Wednesday, 21-Oct-26 07:29:00 GMT", 120},
		{"Wed Oct 21 07:27:05 2026", 5},
		{"Wed, 21 Oct 2026 07:26:00 GMT", 1},
		{"Thu, 22 Oct 2026 07:27:00 GMT", 300},
		{"Fri, 01 Jan 9999 00:00:00 GMT", 300},
		{"1.5", 60},
		{"soon", 60},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			t.Parallel()
			if got := RetryAfter(tt.in, now, 60, 300); got != tt.want {
				t.Errorf("RetryAfter(%q, 60, 300) = %d, want %d", tt.in, got, tt.want)
			}
		})
	}
}

// TestResetAfter: a reset time in Unix seconds counted from the clock,
// rounded up, at least 1 and at most the ceiling; a number too large to
// parse is the ceiling; zero, a negative or malformed value is not usable.
func TestResetAfter(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 22, 10, 0, 0, 500_000_000, time.UTC)
	unix := func(d int64) string { return strconv.FormatInt(now.Unix()+d, 10) }
	for _, tt := range []struct {
		in     string
		want   int
		wantOK bool
	}{
		{unix(42), 42, true}, {unix(1), 1, true}, {unix(0), 1, true}, {unix(-100), 1, true},
		{unix(86400), 300, true}, {"99999999999999999999", 300, true}, {"9223372036854775807", 300, true},
		{"", 0, false}, {"0", 0, false}, {"-5", 0, false}, {"soon", 0, false}, {"1.5e9", 0, false},
	} {
		got, ok := ResetAfter(tt.in, now, 300)
		if got != tt.want || ok != tt.wantOK {
			t.Errorf("ResetAfter(%q) = %d, %v; want %d, %v", tt.in, got, ok, tt.want, tt.wantOK)
		}
	}
}

func TestClampSeconds(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ in, want int }{{-3, 1}, {0, 1}, {1, 1}, {42, 42}, {300, 300}, {301, 300}} {
		if got := ClampSeconds(tt.in, 300); got != tt.want {
			t.Errorf("ClampSeconds(%d, 300) = %d, want %d", tt.in, got, tt.want)
		}
	}
}

func FuzzRetryAfter(f *testing.F) {
	for _, s := range []string{"", "0", "120", "-1", "Wed, 21 Oct 2026 07:28:00 GMT"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		now := time.Date(2026, 10, 21, 7, 27, 0, 0, time.UTC)
		if got := RetryAfter(v, now, 60, 300); got < 1 || got > 300 {
			t.Errorf("RetryAfter(%q) = %d, outside [1, 300]", v, got)
		}
		if got, ok := ResetAfter(v, now, 300); ok && (got < 1 || got > 300) || !ok && got != 0 {
			t.Errorf("ResetAfter(%q) = %d, %v", v, got, ok)
		}
	})
}

func FuzzParseBaseURL(f *testing.F) {
	for _, s := range []string{"https://api.test", "https://u:p@h", "/x", "http://h/?q#f"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		u, err := ParseBaseURL(s)
		if err != nil {
			return
		}
		if u.User != nil || u.RawQuery != "" || u.Fragment != "" || u.Host == "" {
			t.Errorf("ParseBaseURL(%q) accepted %v", s, u)
		}
	})
}
