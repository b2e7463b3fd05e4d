package gb

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"

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
// URL, so no error text can contain it; [upstream.Client.Redact] is the
// second line of defence.
func (c *Country) get(ctx context.Context, ep endpoint, path string, query url.Values, subject string) ([]byte, error) {
	if c.cred == nil {
		return nil, c.Ready()
	}
	a, err := c.up.Get(ctx, upstream.Request{Path: path, Query: query})
	if err != nil {
		var ours *registry.Error
		if errors.As(err, &ours) {
			return nil, err
		}
		return nil, c.wrap(registry.CodeUpstreamError, true, "Companies House could not be reached.", "", err)
	}
	// Every answer other than 200 is judged by its status alone, and its
	// error carries the status in UpstreamStatus, from which the Registry
	// logs the cause of a failed attempt.
	switch s := a.Status; {
	case s == http.StatusOK:
		return a.Body, nil
	case s == http.StatusNotFound && ep == endpointList:
		return nil, nil
	case s == http.StatusNotFound && ep == endpointProfile:
		return nil, c.up.Reject(a, registry.CodeNotFound,
			"No company with number "+subject+" is registered at Companies House.",
			"Check the number against the company's documents, or search by name with the search operation; do not retry this number.")
	case s == http.StatusUnauthorized || s == http.StatusForbidden:
		return nil, c.up.Reject(a, registry.CodeUpstreamError,
			fmt.Sprintf("Companies House refused this service's API key (HTTP %d).", s),
			"The operator's Companies House API key is wrong, revoked, restricted to other addresses or blocked: the operator must check "+APIKeyEnv+". Retrying will not help until then.")
	}
	return nil, c.up.StatusError(a)
}

// decode unmarshals a 200 body into v; a body that is not the expected
// JSON is a retryable upstream error.
func (c *Country) decode(body []byte, v any) error { return c.up.Decode(body, v, "an answer") }

// retryAfter returns the whole seconds until the X-Ratelimit-Reset epoch
// time, else a Retry-After header's (seconds or a date), at least 1 and at
// most the five-minute window (a number too large to parse is the
// window); 60 when neither header is usable.
func (c *Country) retryAfter(h http.Header) int {
	now := c.now()
	if secs, ok := upstream.ResetAfter(h.Get("X-Ratelimit-Reset"), now, maxRetryAfter); ok {
		return secs
	}
	return upstream.RetryAfter(h.Get("Retry-After"), now, defaultRetryAfter, maxRetryAfter)
}

// wrap returns an *registry.Error for GB with a cause and retryability.
func (c *Country) wrap(code registry.Code, retryable bool, msg, hint string, cause error) *registry.Error {
	e := c.errorf(code, msg, hint)
	e.Retryable = retryable
	e.Err = cause
	return e
}
