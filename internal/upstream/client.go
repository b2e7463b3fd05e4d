package upstream

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	registry "github.com/companyregistry/registry"
)

// Config is what a module's options set and what [NewClient] builds a
// [Client] from. A module starts from one with Module, Country, Registry,
// Name, BaseURL (its default) and the limits filled in, lets its options
// call the Set methods, and passes it to NewClient.
type Config struct {
	// Module is the package name that starts every option error, such as
	// "no".
	Module string
	// Country and Registry identify the module in every error.
	Country, Registry string
	// Name is the register as the messages name it, such as
	// "Enhetsregisteret".
	Name string
	// BaseURL is the address every path is appended to; see
	// [ParseBaseURL].
	BaseURL string
	// HTTPClient sends the requests; nil is a zero client. NewClient keeps
	// a copy that follows no redirect ([NoRedirects]).
	HTTPClient *http.Client
	// ContactEmail goes into the User-Agent ([UserAgent]).
	ContactEmail string
	// MaxBodyBytes bounds the body of a 200 answer.
	MaxBodyBytes int64
	// Authorization, when not empty, is sent as the Authorization header
	// of every request. It never appears in an error the Client returns.
	Authorization string
	// Secret, when not empty, is the credential inside Authorization as
	// the operator gave it (an API key); [Client.Redact] hides it too.
	Secret string
	// Auth, when not nil, gives the Authorization header of each request
	// instead of Authorization (an access token that changes, see
	// [TokenSource]). When the register answers 401 to a request, the
	// Client tells Auth with Rejected and sends the request once more with
	// the value Auth gives then. Neither value ever appears in an error.
	Auth Authorizer
	// RateLimitMessage is the message of a 429 answer, such as "X is
	// limiting the rate of requests from this service."
	RateLimitMessage string
	// RetryAfter turns the headers of a 429 answer into the seconds of
	// details.retry_after. When nil, the Retry-After header counts (see
	// [RetryAfter]), at most 3600 seconds and 60 when it is missing or
	// malformed.
	RetryAfter func(http.Header) int
	// Now is the clock a Retry-After date is counted from; nil is
	// time.Now.
	Now func() time.Time
}

// SetBaseURL checks u with [ParseBaseURL] and keeps it without trailing
// slashes; its error starts "<module>: WithBaseURL:" and never repeats u.
func (c *Config) SetBaseURL(u string) error {
	p, err := ParseBaseURL(u)
	if err != nil {
		return fmt.Errorf("%s: WithBaseURL: %w", c.Module, err)
	}
	c.BaseURL = p.String()
	return nil
}

// SetHTTPClient keeps hc, which must not be nil.
func (c *Config) SetHTTPClient(hc *http.Client) error {
	if hc == nil {
		return fmt.Errorf("%s: WithHTTPClient: nil client", c.Module)
	}
	c.HTTPClient = hc
	return nil
}

// SetContactEmail checks email with [ValidateContactEmail] and keeps it.
func (c *Config) SetContactEmail(email string) error {
	if err := ValidateContactEmail(email); err != nil {
		return fmt.Errorf("%s: WithContactEmail: %q: %w", c.Module, email, err)
	}
	c.ContactEmail = email
	return nil
}

// Apply runs the options of a module's New on o in order and returns the
// first error; a nil option is an error "<module>: New: nil option".
func Apply[O any, F ~func(*O) error](module string, o *O, opts []F) error {
	for _, opt := range opts {
		if opt == nil {
			return fmt.Errorf("%s: New: nil option", module)
		}
		if err := opt(o); err != nil {
			return err
		}
	}
	return nil
}

// New applies opts to cfg in order, as [Apply] does, and returns the
// [Client] of the result: the whole New of a module whose options set
// nothing but a Config.
func New[F ~func(*Config) error](cfg Config, opts []F) (*Client, error) {
	if err := Apply(cfg.Module, &cfg, opts); err != nil {
		return nil, err
	}
	return NewClient(cfg)
}

// Authorizer gives the Authorization header of a request, for a register
// whose credential changes: an OAuth2 access token ([TokenSource]).
type Authorizer interface {
	// Authorization returns the header value, such as "Bearer abc". Its
	// error is returned by the request as it is, so it should be a
	// *registry.Error that holds no credential.
	Authorization(ctx context.Context) (string, error)
	// Rejected tells that the register answered 401 to a request sent
	// with value, which should then not be given again.
	Rejected(value string)
}

// Client sends a module's requests to its register (GET, or POST with a
// body: a JSON query document, an identifier that must not be in a URL, a
// token request): to the base URL
// only (redirects are answered as they are, never followed), with the
// module's User-Agent and Accept, reading at most MaxBodyBytes of a 200
// answer whose Content-Type may hold JSON. It holds no state between calls
// and is safe for concurrent use.
type Client struct {
	cfg     Config
	http    *http.Client
	agent   string
	secrets []string // what Redact hides: Authorization, its credential, Secret
}

// NewClient checks cfg's base URL and returns its Client.
func NewClient(cfg Config) (*Client, error) {
	p, err := ParseBaseURL(cfg.BaseURL)
	if err != nil {
		return nil, fmt.Errorf("%s: base URL: %w", cfg.Module, err)
	}
	cfg.BaseURL = p.String()
	if cfg.MaxBodyBytes <= 0 {
		return nil, fmt.Errorf("%s: no body limit", cfg.Module)
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	c := &Client{cfg: cfg, http: NoRedirects(cfg.HTTPClient), agent: UserAgent(cfg.ContactEmail)}
	for _, s := range []string{cfg.Authorization, afterScheme(cfg.Authorization), cfg.Secret} {
		if s != "" {
			c.secrets = append(c.secrets, s)
		}
	}
	return c, nil
}

// String hides the configuration, which may hold a credential, from fmt.
func (*Client) String() string { return "upstream.Client" }

// GoString hides the configuration from fmt's %#v.
func (*Client) GoString() string { return "upstream.Client" }

// BaseURL returns the base URL, without trailing slashes.
func (c *Client) BaseURL() string { return c.cfg.BaseURL }

// MaxBodyBytes returns the bound of a 200 body.
func (c *Client) MaxBodyBytes() int64 { return c.cfg.MaxBodyBytes }

// Request is one request: Path (already escaped, such as "/enheter/" +
// url.PathEscape(id)) is appended to the base URL, Query, when it encodes
// to anything, follows a "?", and Accept is the Accept header
// ("application/json" when empty). ContentType is the type of the body
// [Client.Post] sends ("application/json" when empty).
type Request struct {
	Path        string
	Query       url.Values
	Accept      string
	ContentType string
}

// Response is an answer of the register: its status and headers and, for
// a 200, its body. The body of any other status is drained and dropped.
type Response struct {
	Status int
	Header http.Header
	Body   []byte
}

// Get sends r as a GET. An error from the HTTP client is returned as is, so
// that the Registry can tell a timeout from a refused connection (with the
// credential, should its text hold it, replaced by "[redacted]"). A
// request that cannot be built is an internal_error; a 200 whose
// Content-Type is not JSON, a body that breaks off or is larger than
// MaxBodyBytes is a retryable upstream_error of the module. Every other
// answer is a Response for the module to judge, with [Client.StatusError]
// for what it does not expect.
func (c *Client) Get(ctx context.Context, r Request) (*Response, error) {
	return c.do(ctx, http.MethodGet, r, nil)
}

// Post sends r as a POST whose body is body, of type r.ContentType (a JSON
// document when empty), for a register that takes its question in the
// body (an Elasticsearch search, an identifier that must not appear in a
// URL, a token request). Everything else is as for [Client.Get]: the
// answer, its errors and the credential's redaction.
func (c *Client) Post(ctx context.Context, r Request, body []byte) (*Response, error) {
	if body == nil {
		body = []byte{}
	}
	return c.do(ctx, http.MethodPost, r, body)
}

// do sends r with method and body (none when nil) and, when Config.Auth
// is set and the register answers 401, once more with a fresh
// Authorization.
func (c *Client) do(ctx context.Context, method string, r Request, body []byte) (*Response, error) {
	auth := c.cfg.Authorization
	if c.cfg.Auth != nil {
		var err error
		if auth, err = c.cfg.Auth.Authorization(ctx); err != nil {
			return nil, err
		}
	}
	a, err := c.send(ctx, method, r, body, auth)
	if err != nil || a.Status != http.StatusUnauthorized || c.cfg.Auth == nil {
		return a, err
	}
	c.cfg.Auth.Rejected(auth)
	if auth, err = c.cfg.Auth.Authorization(ctx); err != nil {
		return nil, err
	}
	return c.send(ctx, method, r, body, auth)
}

// send sends one request with the Authorization value auth.
func (c *Client) send(ctx context.Context, method string, r Request, body []byte, auth string) (*Response, error) {
	u := c.cfg.BaseURL + r.Path
	if q := r.Query.Encode(); q != "" {
		u += "?" + q
	}
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, u, rd)
	if err != nil {
		return nil, c.Error(registry.CodeInternalError, false, c.redact(err, auth), "The request to "+c.cfg.Name+" could not be built.")
	}
	accept := r.Accept
	if accept == "" {
		accept = "application/json"
	}
	req.Header.Set("Accept", accept)
	req.Header.Set("User-Agent", c.agent)
	if body != nil {
		ct := r.ContentType
		if ct == "" {
			ct = "application/json"
		}
		req.Header.Set("Content-Type", ct)
	}
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, c.redact(err, auth)
	}
	defer resp.Body.Close()
	a := &Response{Status: resp.StatusCode, Header: resp.Header}
	if resp.StatusCode != http.StatusOK {
		Discard(resp.Body)
		return a, nil
	}
	if !IsJSON(resp.Header.Get("Content-Type")) {
		Discard(resp.Body)
		return nil, c.Error(registry.CodeUpstreamError, true, nil,
			c.cfg.Name+" answered with a page that is not JSON (an error page of a proxy?).")
	}
	a.Body, err = ReadBody(resp.Body, c.cfg.MaxBodyBytes)
	switch {
	case errors.Is(err, errTooLarge):
		return nil, c.Error(registry.CodeUpstreamError, true, nil,
			fmt.Sprintf("The answer of %s is larger than %d bytes and was not read.", c.cfg.Name, c.cfg.MaxBodyBytes))
	case err != nil:
		return nil, c.Error(registry.CodeUpstreamError, true, c.redact(err, auth),
			"The answer of "+c.cfg.Name+" broke off before it was complete.")
	}
	return a, nil
}

// redact is [Client.Redact] that also hides auth, the Authorization value
// of the request, and its credential.
func (c *Client) redact(err error, auth string) error {
	err = c.Redact(err)
	if err == nil || auth == "" || auth == c.cfg.Authorization {
		return err
	}
	text := err.Error()
	for _, s := range []string{auth, afterScheme(auth)} {
		if s != "" {
			text = strings.ReplaceAll(text, s, "[redacted]")
		}
	}
	if text == err.Error() {
		return err
	}
	return errors.New(text)
}

// StatusError maps an answer the module does not expect: 429 is
// rate_limited with details.retry_after, a 5xx a retryable
// upstream_error, anything else (a 3xx among them) a final upstream_error.
// Each carries the status in UpstreamStatus, from which the Registry logs
// the cause of a failed attempt.
func (c *Client) StatusError(a *Response) *registry.Error {
	var e *registry.Error
	switch {
	case a.Status == http.StatusTooManyRequests:
		e = c.Error(registry.CodeRateLimited, false, nil, c.cfg.RateLimitMessage)
		e.Hint = "Back off for details.retry_after seconds, then retry."
		e.Details = map[string]any{"retry_after": c.retryAfter(a.Header)}
	case a.Status >= 500:
		e = c.Error(registry.CodeUpstreamError, true, nil, fmt.Sprintf("%s answered HTTP %d.", c.cfg.Name, a.Status))
	default:
		e = c.Error(registry.CodeUpstreamError, false, nil, fmt.Sprintf("%s answered with the unexpected HTTP status %d.", c.cfg.Name, a.Status))
	}
	e.UpstreamStatus = a.Status
	return e
}

// Default back-off of a 429 answer, in seconds, when Config.RetryAfter is
// nil.
const (
	defaultRetryAfter = 60
	maxRetryAfter     = 3600
)

func (c *Client) retryAfter(h http.Header) int {
	if c.cfg.RetryAfter != nil {
		return c.cfg.RetryAfter(h)
	}
	return RetryAfter(h.Get("Retry-After"), c.cfg.Now(), defaultRetryAfter, maxRetryAfter)
}

// Decode unmarshals the body of a 200 answer into v. A body that is not
// valid JSON for v is a retryable upstream_error "<Name> sent <what> that
// is not valid JSON." wrapping the decoder's error; what is such as "an
// answer" or "a search answer".
func (c *Client) Decode(body []byte, v any, what string) error {
	if err := json.Unmarshal(body, v); err != nil {
		return c.Error(registry.CodeUpstreamError, true, err, c.cfg.Name+" sent "+what+" that is not valid JSON.")
	}
	return nil
}

// Fail returns an *registry.Error of the module with a hint.
func (c *Client) Fail(code registry.Code, msg, hint string) *registry.Error {
	return &registry.Error{Code: code, Country: c.cfg.Country, Registry: c.cfg.Registry, Message: msg, Hint: hint}
}

// Reject returns the *registry.Error of the module for an answer it
// understands as a failure, such as a 400 for a malformed identifier: Fail
// with the answer's status in UpstreamStatus.
func (c *Client) Reject(a *Response, code registry.Code, msg, hint string) *registry.Error {
	e := c.Fail(code, msg, hint)
	e.UpstreamStatus = a.Status
	return e
}

// Error returns an *registry.Error of the module.
func (c *Client) Error(code registry.Code, retryable bool, cause error, msg string) *registry.Error {
	return &registry.Error{Code: code, Country: c.cfg.Country, Registry: c.cfg.Registry, Message: msg, Err: cause, Retryable: retryable}
}

// BasicAuthorization returns the value of an Authorization header for HTTP
// Basic authentication (RFC 7617) with user and password, such as
// "Basic dXNlcjpwYXNz"; a register that takes an API key as the user name
// passes an empty password. Keep the result in Config.Authorization and the
// secret part in Config.Secret, so that [Client.Redact] hides both.
func BasicAuthorization(user, password string) string {
	return "Basic " + base64.StdEncoding.EncodeToString([]byte(user+":"+password))
}

// afterScheme returns the credential of an Authorization value such as
// "Basic abc=", or "" when it has no scheme.
func afterScheme(auth string) string {
	_, cred, _ := strings.Cut(auth, " ")
	return cred
}

// Redact returns err unchanged unless its text holds the credential (the
// Authorization header, the part after its scheme, or Config.Secret),
// which it cannot when the credential travels only in a header; it is a
// second line of defence against a transport that echoes request headers,
// or a short password that the text of any error holds ("p" is in
// "http"). The redacted error does not unwrap to its cause, so nothing in
// its chain holds the credential; it keeps what a failure is classified
// by: errors.Is against the cause (a refused connection, a deadline, an
// unexpected EOF) and, when the cause is a net.Error, its being a
// net.Error and its Timeout, so a failed connection stays an
// upstream_error.
func (c *Client) Redact(err error) error {
	if err == nil || len(c.secrets) == 0 {
		return err
	}
	text := err.Error()
	hit := false
	for _, s := range c.secrets {
		if strings.Contains(text, s) {
			hit = true
			text = strings.ReplaceAll(text, s, "[redacted]")
		}
	}
	if !hit {
		return err
	}
	r := redacted{text: text, cause: err}
	var ne net.Error
	if errors.As(err, &ne) {
		return &redactedNet{redacted: r, timeout: ne.Timeout()}
	}
	return &r
}

// redacted is an error whose text had the credential replaced. Is asks
// the cause, which answers only yes or no; the cause itself is never
// handed out (no Unwrap, no As).
type redacted struct {
	text  string
	cause error
}

func (e *redacted) Error() string { return e.text }

// GoString prints the redacted text only, so %#v shows nothing of the
// cause.
func (e *redacted) GoString() string { return "upstream.redacted(" + strconv.Quote(e.text) + ")" }

// Is reports whether the cause's chain matches target.
func (e *redacted) Is(target error) bool { return errors.Is(e.cause, target) }

// redactedNet is a redacted network failure: a net.Error whose Timeout is
// the cause's.
type redactedNet struct {
	redacted
	timeout bool
}

// Timeout reports whether the cause was a timeout.
func (e *redactedNet) Timeout() bool { return e.timeout }

// Temporary is false; net.Error deprecates it.
func (e *redactedNet) Temporary() bool { return false }
