package upstream

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"golang.org/x/sync/singleflight"

	registry "github.com/companyregistry/registry"
)

// TokenConfig configures a [TokenSource]: an OAuth2 client-credentials
// grant (RFC 6749 § 4.4) with the client's id and secret in the form body.
type TokenConfig struct {
	// Client sends the token requests: its base URL is the token endpoint
	// (such as https://auth.example/oauth2/token), its Name names the
	// token service in messages. Give its Config the secret as Secret, so
	// that no transport error can carry it.
	Client *Client
	// ClientID and ClientSecret are the operator's credential.
	ClientID, ClientSecret string
	// Scope, when not empty, is the space-separated scope asked for.
	Scope string
	// RefusedHint is the hint of the error for a credential the token
	// endpoint refuses (400 or 401): it names the setting to fix.
	RefusedHint string
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// Timeout bounds one token request, which runs apart from the caller
	// that started it (other callers wait for the same token); 0 means 20
	// seconds.
	Timeout time.Duration
}

// TokenSource holds one OAuth2 access token of the client-credentials
// grant and gives it as a "Bearer" Authorization value: it asks the token
// endpoint on first use, again when a tenth of the token's lifetime
// (expires_in, 300 seconds when the answer has none) is left, and again
// after a request was answered 401 ([TokenSource.Rejected]). Callers that
// need a token while one is being fetched wait for that fetch: there is
// never more than one request to the token endpoint at a time. It is a
// [Authorizer] for [Config].Auth and is safe for concurrent use.
//
// Neither the secret nor a token ever appears in an error it returns.
type TokenSource struct {
	cfg   TokenConfig
	body  []byte
	group singleflight.Group

	mu      sync.Mutex
	value   string    // "Bearer <token>", or "" when none is held
	renewAt time.Time // when value should be replaced
}

var _ Authorizer = (*TokenSource)(nil)

// Token lifetimes.
const (
	defaultTokenLifetime = 300 * time.Second
	defaultTokenTimeout  = 20 * time.Second
)

// MaxTokenBodyBytes is a body limit for the Client of a token endpoint: a
// token answer is well under a kilobyte.
const MaxTokenBodyBytes = 64 << 10

// NewTokenSource returns a TokenSource for cfg; it fetches nothing yet.
func NewTokenSource(cfg TokenConfig) *TokenSource {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = defaultTokenTimeout
	}
	form := url.Values{"grant_type": {"client_credentials"}, "client_id": {cfg.ClientID}, "client_secret": {cfg.ClientSecret}}
	if cfg.Scope != "" {
		form.Set("scope", cfg.Scope)
	}
	return &TokenSource{cfg: cfg, body: []byte(form.Encode())}
}

// String hides the credential from fmt.
func (*TokenSource) String() string { return "upstream.TokenSource" }

// GoString hides the credential from fmt's %#v.
func (*TokenSource) GoString() string { return "upstream.TokenSource" }

// Authorization returns "Bearer <access token>", fetching a token when none
// is held or the one held is due for renewal. A caller whose ctx ends
// while it waits gets ctx's error; the fetch goes on for the others.
func (s *TokenSource) Authorization(ctx context.Context) (string, error) {
	s.mu.Lock()
	v, renew := s.value, s.renewAt
	s.mu.Unlock()
	if v != "" && s.cfg.Now().Before(renew) {
		return v, nil
	}
	ch := s.group.DoChan("token", func() (any, error) {
		fctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), s.cfg.Timeout)
		defer cancel()
		return s.fetch(fctx)
	})
	select {
	case <-ctx.Done():
		return "", ctx.Err()
	case r := <-ch:
		if r.Err != nil {
			return "", r.Err
		}
		return r.Val.(string), nil
	}
}

// Rejected drops value when it is the token held, so that the next
// Authorization fetches a new one.
func (s *TokenSource) Rejected(value string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.value == value {
		s.value = ""
	}
}

// tokenAnswer is the token endpoint's 200 answer.
type tokenAnswer struct {
	AccessToken string  `json:"access_token"`
	TokenType   string  `json:"token_type"`
	ExpiresIn   FlexInt `json:"expires_in"`
}

// fetch asks the token endpoint for a token and keeps it.
func (s *TokenSource) fetch(ctx context.Context) (string, error) {
	c := s.cfg.Client
	start := s.cfg.Now()
	a, err := c.Post(ctx, Request{ContentType: "application/x-www-form-urlencoded"}, s.body)
	if err != nil {
		return "", err
	}
	switch a.Status {
	case http.StatusOK:
	case http.StatusBadRequest, http.StatusUnauthorized, http.StatusForbidden:
		e := c.Reject(a, registry.CodeUpstreamError, c.cfg.Name+" refused the operator's client credentials.", s.cfg.RefusedHint)
		return "", e
	default:
		return "", c.StatusError(a)
	}
	tok, life, err := parseTokenAnswer(c, a.Body)
	if err != nil {
		return "", err
	}
	v := "Bearer " + tok
	s.mu.Lock()
	s.value, s.renewAt = v, start.Add(life-life/10)
	s.mu.Unlock()
	return v, nil
}

// parseTokenAnswer reads the token endpoint's 200 answer: the access token
// (a bearer token, without blanks) and its lifetime (expires_in seconds,
// [defaultTokenLifetime] when absent or out of range). Its errors never
// quote the body, which may hold a token.
func parseTokenAnswer(c *Client, body []byte) (token string, life time.Duration, err error) {
	var t tokenAnswer
	if err := c.Decode(body, &t, "a token answer"); err != nil {
		// The decoder's message may quote the body, which holds a token.
		return "", 0, c.Error(registry.CodeUpstreamError, true, nil, c.cfg.Name+" sent a token answer that is not valid JSON.")
	}
	tok := strings.TrimSpace(t.AccessToken)
	if tok == "" || strings.ContainsAny(tok, " \r\n\t") || (t.TokenType != "" && !strings.EqualFold(t.TokenType, "bearer")) {
		return "", 0, c.Error(registry.CodeUpstreamError, true, nil, c.cfg.Name+" sent a token answer without a bearer access token.")
	}
	life = defaultTokenLifetime
	if t.ExpiresIn.Set && t.ExpiresIn.Value > 0 && t.ExpiresIn.Value < 1<<31 {
		life = time.Duration(t.ExpiresIn.Value) * time.Second
	}
	return tok, life, nil
}
