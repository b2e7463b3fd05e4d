// Package upstream is the HTTP plumbing every country module shares: a
// [Client] that sends a module's requests, GET or a POST with a body
// (base URL, User-Agent, Accept, an optional Authorization that never
// reaches an error: fixed, such as [BasicAuthorization], or from an
// [Authorizer] such as the OAuth2 client-credentials [TokenSource], renewed
// once on a 401; no
// redirects, a bounded body whose Content-Type must allow JSON) and maps
// the statuses a module does not expect (429 with Retry-After, 5xx, the
// rest); the [Config] a module's options fill in, with the checks of its
// base URL, HTTP client and contact e-mail; and the few helpers for
// decoded values they share (a yes/no/unknown answer of a table, an
// optional flag, an optional date).
//
// It holds no state between calls and knows nothing of any register: each
// module keeps its endpoints, its limits, the meaning of its 400, 404 and
// 410 answers and its register's name in the messages.
package upstream

import (
	"errors"
	"io"
	"mime"
	"net/http"
	"net/mail"
	"net/url"
	"strconv"
	"strings"
	"time"

	registry "github.com/companyregistry/registry"
)

// DrainBytes bounds what [Discard] reads from a body that is not used, so
// that the connection can be reused without reading an unbounded body.
const DrainBytes = 64 << 10

// errTooLarge is what [ErrTooLarge] returns.
var errTooLarge = errors.New("upstream: body exceeds the limit")

// ErrTooLarge returns the error [ReadBody] reports for a body longer than
// its limit; test for it with errors.Is.
func ErrTooLarge() error { return errTooLarge }

// ParseBaseURL checks a module's base URL: an absolute http or https URL
// with a host and without user information, query or fragment. Surrounding
// space and trailing slashes are removed, so that a path can be appended.
// The error never repeats s, which may hold a credential.
func ParseBaseURL(s string) (*url.URL, error) {
	u, err := url.Parse(strings.TrimRight(strings.TrimSpace(s), "/"))
	if err != nil {
		return nil, errors.New("the base URL is not a valid URL")
	}
	if (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return nil, errors.New("the base URL is not an absolute http(s) URL")
	}
	if u.User != nil {
		return nil, errors.New("the base URL has user information")
	}
	if u.RawQuery != "" || u.ForceQuery || u.Fragment != "" {
		return nil, errors.New("the base URL has a query or fragment")
	}
	return u, nil
}

// ValidateContactEmail checks an operator's contact e-mail address for the
// User-Agent header: empty (no address), or a plain address such as
// ops@example.org, without a display name, angle brackets, parentheses or
// line breaks.
func ValidateContactEmail(email string) error {
	if email == "" {
		return nil
	}
	a, err := mail.ParseAddress(email)
	if err != nil || a.Name != "" || a.Address != email || strings.ContainsAny(email, "()<>\r\n") {
		return errors.New("the contact e-mail is not a plain e-mail address")
	}
	return nil
}

// UserAgent returns the User-Agent header every module sends: the library,
// its version and home page, and the contact e-mail when there is one. The
// e-mail must have passed [ValidateContactEmail].
func UserAgent(email string) string {
	ua := "companyregistry/" + registry.Version + " (+https://github.com/companyregistry/registry"
	if email != "" {
		ua += "; " + email
	}
	return ua + ")"
}

// NoRedirects returns a copy of c (or of a zero client when c is nil) that
// returns a redirect answer as it is instead of following it. The caller's
// client is not changed. A module's base URL is the only address it calls,
// and a credential must not travel to a redirect target.
func NoRedirects(c *http.Client) *http.Client {
	cc := &http.Client{}
	if c != nil {
		*cc = *c
	}
	cc.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	return cc
}

// IsJSON reports whether a 200 answer's Content-Type may hold JSON:
// application/json, an application/ type ending in +json, or no
// Content-Type at all (the body is then decoded and must be JSON). Anything
// else, such as the text/html error page of a proxy, is not JSON.
func IsJSON(contentType string) bool {
	if strings.TrimSpace(contentType) == "" {
		return true
	}
	mt, _, err := mime.ParseMediaType(contentType)
	return err == nil && (mt == "application/json" || strings.HasPrefix(mt, "application/") && strings.HasSuffix(mt, "+json"))
}

// ReadBody reads all of r up to limit bytes. A body longer than limit is
// an error matching [ErrTooLarge] (nothing past limit+1 bytes is read); a
// read error is returned as is.
func ReadBody(r io.Reader, limit int64) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > limit {
		return nil, errTooLarge
	}
	return b, nil
}

// Discard reads and drops at most [DrainBytes] of a body that is not used,
// so that its connection can be reused.
func Discard(r io.Reader) {
	_, _ = io.Copy(io.Discard, io.LimitReader(r, DrainBytes))
}

// RetryAfter returns the back-off in seconds given by a Retry-After value
// (RFC 9110, section 10.2.3): delay-seconds, or an HTTP-date counted from
// now, rounded up. The result is at least 1 (a 0 or a date already past
// means "now", and a back-off is due anyway) and at most ceiling: a number
// of seconds too large to parse is the ceiling too. A missing, negative or
// otherwise malformed value gives def.
func RetryAfter(v string, now time.Time, def, ceiling int) int {
	v = strings.TrimSpace(v)
	if v == "" {
		return def
	}
	if isDigits(v) {
		n, err := strconv.Atoi(v)
		if err != nil { // digits only: out of range
			return ceiling
		}
		return ClampSeconds(n, ceiling)
	}
	if t, err := http.ParseTime(v); err == nil {
		return ceilSeconds(t.Sub(now), ceiling)
	}
	return def
}

// ResetAfter returns the back-off in seconds until a rate-limit window's
// reset given as Unix seconds (such as Companies House's X-Ratelimit-Reset),
// counted from now and rounded up, at least 1 and at most ceiling; ok is
// false for a missing, negative, zero or malformed value. A number too
// large to parse is the ceiling.
func ResetAfter(v string, now time.Time, ceiling int) (secs int, ok bool) {
	v = strings.TrimSpace(v)
	if !isDigits(v) {
		return 0, false
	}
	n, err := strconv.ParseInt(v, 10, 64)
	switch {
	case err != nil: // digits only: out of range
		return ceiling, true
	case n == 0:
		return 0, false
	case n > now.Unix()+int64(ceiling):
		return ceiling, true
	}
	return ceilSeconds(time.Unix(n, 0).Sub(now), ceiling), true
}

// isDigits reports whether s is one or more ASCII digits.
func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// ceilSeconds is d in whole seconds rounded up, bounded as ClampSeconds.
func ceilSeconds(d time.Duration, ceiling int) int {
	if d >= time.Duration(ceiling)*time.Second {
		return ceiling
	}
	return ClampSeconds(int((d+time.Second-1)/time.Second), ceiling)
}

// ClampSeconds bounds a back-off to at least 1 and at most ceiling seconds.
func ClampSeconds(n, ceiling int) int {
	return min(max(n, 1), ceiling)
}
