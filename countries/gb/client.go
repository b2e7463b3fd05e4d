package gb

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/internal/upstream"
)

// maxBodyBytes bounds an upstream body. A company profile is a few KiB and a
// search page of 100 hits about 100 KiB.
const maxBodyBytes = 4 << 20

// Retry delays for a 429 answer, in seconds.
const (
	defaultRetryAfter = 60
	// maxRetryAfter is the length of Companies House's rate-limit window
	// (600 requests per five minutes).
	maxRetryAfter = 300
)

// endpoint says which upstream resource a call reads, for messages and for
// the meaning of a 404.
type endpoint int

const (
	endpointProfile endpoint = iota
	endpointSearch
	// endpointList is a page of officers, PSCs or PSC statements (roles):
	// a 404, which older versions of the API sent for an empty list, is
	// answered with a nil body and no error.
	endpointList
)

// get performs one GET of path?query on the API and returns the body of a
// 200 answer. Every other outcome is an *registry.Error (or, for a
// transport failure, a retryable *registry.Error wrapping the client's
// error). The API key travels only in the Authorization header, never in the
// URL, so no error text can contain it.
func (c *Country) get(ctx context.Context, ep endpoint, path string, query url.Values, subject string) (_ []byte, err error) {
	if c.cred == nil {
		return nil, c.Ready()
	}
	u := *c.base
	u.Path = strings.TrimRight(u.Path, "/") + path
	u.RawPath = ""
	u.RawQuery = query.Encode()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, c.wrap(registry.CodeInternalError, false, "The request to Companies House could not be built.", "", err)
	}
	req.Header.Set("Authorization", c.cred.authorization)
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", c.agent)

	resp, err := c.client.Do(req)
	if err != nil {
		return nil, c.wrap(registry.CodeUpstreamError, true, "Companies House could not be reached.", "", c.redact(err))
	}
	defer resp.Body.Close()
	defer setUpstreamStatus(&err, resp.StatusCode)

	switch s := resp.StatusCode; {
	case s == http.StatusOK && !upstream.IsJSON(resp.Header.Get("Content-Type")):
		upstream.Discard(resp.Body)
		return nil, c.wrap(registry.CodeUpstreamError, true, "Companies House answered with a page that is not JSON (an error page of a proxy?).", "", nil)
	case s == http.StatusOK:
		body, err := upstream.ReadBody(resp.Body, maxBodyBytes)
		switch {
		case errors.Is(err, upstream.ErrTooLarge()):
			return nil, c.wrap(registry.CodeUpstreamError, true, fmt.Sprintf("Companies House sent an answer larger than %d bytes.", maxBodyBytes), "", nil)
		case err != nil:
			return nil, c.wrap(registry.CodeUpstreamError, true, "The answer from Companies House was cut off.", "", c.redact(err))
		}
		return body, nil
	}
	// Every other answer is judged by its status alone; its body is only
	// drained, so that the connection can be reused.
	upstream.Discard(resp.Body)
	switch s := resp.StatusCode; {
	case s == http.StatusNotFound && ep == endpointList:
		return nil, nil
	case s == http.StatusNotFound && ep == endpointProfile:
		return nil, c.errorf(registry.CodeNotFound,
			"No company with number "+subject+" is registered at Companies House.",
			"Check the number against the company's documents, or search by name with the search operation; do not retry this number.")
	case s == http.StatusUnauthorized || s == http.StatusForbidden:
		return nil, c.errorf(registry.CodeUpstreamError,
			fmt.Sprintf("Companies House refused this service's API key (HTTP %d).", s),
			"The operator's Companies House API key is wrong, revoked, restricted to other addresses or blocked: the operator must check "+APIKeyEnv+". Retrying will not help until then.")
	case s == http.StatusTooManyRequests:
		after := c.retryAfter(resp.Header)
		e := c.errorf(registry.CodeRateLimited,
			"Companies House's rate limit for this service's API key is used up (600 requests per five minutes).",
			fmt.Sprintf("Back off for details.retry_after (%d) seconds, then retry.", after))
		e.Details = map[string]any{"retry_after": after}
		return nil, e
	case s >= 500:
		return nil, c.wrap(registry.CodeUpstreamError, true, fmt.Sprintf("Companies House answered with HTTP %d.", s), "", nil)
	}
	return nil, c.wrap(registry.CodeUpstreamError, false, fmt.Sprintf("Companies House answered with unexpected HTTP %d.", resp.StatusCode), "", nil)
}

// setUpstreamStatus records the HTTP status of an answer other than 200 on
// the error get returns, so that the Registry can log it as the cause of a
// failed attempt.
func setUpstreamStatus(err *error, status int) {
	var e *registry.Error
	if status != http.StatusOK && errors.As(*err, &e) {
		e.UpstreamStatus = status
	}
}

// decode unmarshals a 200 body into v; a body that is not the expected
// JSON is a retryable upstream error.
func (c *Country) decode(body []byte, v any) error {
	if err := json.Unmarshal(body, v); err != nil {
		return c.wrap(registry.CodeUpstreamError, true, "Companies House sent an answer that is not the expected JSON.", "", err)
	}
	return nil
}

// retryAfter returns the whole seconds until the X-Ratelimit-Reset epoch
// time, else a Retry-After header's seconds, at least 1 and at most the
// five-minute window; 60 when neither header is usable.
func (c *Country) retryAfter(h http.Header) int {
	if v, err := strconv.ParseInt(strings.TrimSpace(h.Get("X-Ratelimit-Reset")), 10, 64); err == nil && v > 0 {
		wait := time.Unix(v, 0).Sub(c.now())
		return upstream.ClampSeconds(int(math.Ceil(wait.Seconds())), maxRetryAfter)
	}
	return upstream.RetryAfter(h.Get("Retry-After"), defaultRetryAfter, maxRetryAfter)
}

// wrap returns an *registry.Error for GB with a cause and retryability.
func (c *Country) wrap(code registry.Code, retryable bool, msg, hint string, cause error) *registry.Error {
	e := c.errorf(code, msg, hint)
	e.Retryable = retryable
	e.Err = cause
	return e
}

// redact returns err unchanged unless its text contains the credential,
// which it cannot when the key travels only in a header; it is a second line
// of defence against a transport that echoes request headers. The redacted
// error drops the cause, so nothing in its chain holds the key.
func (c *Country) redact(err error) error {
	if err == nil || c.cred == nil {
		return err
	}
	text := err.Error()
	auth := c.cred.authorization
	if !strings.Contains(text, auth) && !strings.Contains(text, strings.TrimPrefix(auth, "Basic ")) {
		return err
	}
	text = strings.ReplaceAll(text, auth, "[redacted]")
	return errors.New(strings.ReplaceAll(text, strings.TrimPrefix(auth, "Basic "), "[redacted]"))
}
