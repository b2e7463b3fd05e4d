package registry

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
)

// Code is a stable error code. Callers branch on it, never on the message;
// codes are never renamed.
type Code string

// The error codes of the interface: the nine of every operation, and the
// three of change monitoring's watch and feed routes (unauthorized,
// forbidden, cursor_expired).
const (
	CodeInvalidID          Code = "invalid_id"
	CodeBadRequest         Code = "bad_request"
	CodeNotFound           Code = "not_found"
	CodeUnsupportedCountry Code = "unsupported_country"
	CodeRateLimited        Code = "rate_limited"
	CodeNotImplemented     Code = "not_implemented"
	CodeUpstreamError      Code = "upstream_error"
	CodeUpstreamTimeout    Code = "upstream_timeout"
	CodeInternalError      Code = "internal_error"
	// CodeUnauthorized is a watch or feed request without a valid API
	// token (HTTP 401 with WWW-Authenticate: Bearer).
	CodeUnauthorized Code = "unauthorized"
	// CodeForbidden is a watch or feed request to a deployment whose
	// operator has configured no API token, so that nobody may use them
	// (HTTP 403).
	CodeForbidden Code = "forbidden"
	// CodeCursorExpired is a change feed cursor older than the changes
	// kept; details.oldest_cursor is where to resume (HTTP 410).
	CodeCursorExpired Code = "cursor_expired"
)

// CodeCanceled is the code of an operation that its caller cancelled
// (errors.Is(err, context.Canceled) is true): the caller gave up, neither the
// register nor the service failed. It is not one of the interface's codes
// and is missing from [Codes]: over REST or MCP the caller that
// cancelled has gone and reads no answer; an adapter that must still write
// one uses HTTP status 499.
const CodeCanceled Code = "canceled"

// Codes returns the codes in the order of the interface's error table: the
// nine of every operation, then the three of the watch and feed routes.
func Codes() []Code {
	return []Code{
		CodeInvalidID, CodeBadRequest, CodeNotFound, CodeUnsupportedCountry, CodeRateLimited,
		CodeNotImplemented, CodeUpstreamError, CodeUpstreamTimeout, CodeInternalError,
		CodeUnauthorized, CodeForbidden, CodeCursorExpired,
	}
}

// StatusClientClosedRequest is the HTTP status of [CodeCanceled] (499, the
// status reverse proxies log for a client that closed its request).
const StatusClientClosedRequest = 499

// HTTPStatus returns the HTTP status code that goes with c; an unknown code
// is 500.
func (c Code) HTTPStatus() int {
	switch c {
	case CodeCanceled:
		return StatusClientClosedRequest
	case CodeInvalidID, CodeBadRequest:
		return http.StatusBadRequest
	case CodeNotFound, CodeUnsupportedCountry:
		return http.StatusNotFound
	case CodeRateLimited:
		return http.StatusTooManyRequests
	case CodeNotImplemented:
		return http.StatusNotImplemented
	case CodeUpstreamError:
		return http.StatusBadGateway
	case CodeUpstreamTimeout:
		return http.StatusGatewayTimeout
	case CodeUnauthorized:
		return http.StatusUnauthorized
	case CodeForbidden:
		return http.StatusForbidden
	case CodeCursorExpired:
		return http.StatusGone
	}
	return http.StatusInternalServerError
}

// DefaultHint returns the generic next action for c. [Error] values that
// carry no hint of their own get this one.
func (c Code) DefaultHint() string {
	switch c {
	case CodeInvalidID:
		return "Do not retry the same string: check the identifier against the country's format (validate it first), or search by name."
	case CodeBadRequest:
		return "Correct the parameter as the message says and retry once."
	case CodeNotFound:
		return "Search by name to find the right identifier; do not retry this identifier."
	case CodeUnsupportedCountry:
		return "Call the countries operation and choose a country code from it; the United Kingdom is GB."
	case CodeRateLimited:
		return "Back off for details.retry_after seconds, then retry."
	case CodeNotImplemented:
		return "This country's register does not offer this operation; use another operation."
	case CodeUpstreamError, CodeUpstreamTimeout:
		return "The service already retried once; wait about 60 seconds and retry at most once more."
	case CodeCanceled:
		return "The caller cancelled the request; retry when the answer is wanted again."
	case CodeUnauthorized:
		return "Send the API token the operator gave you as Authorization: Bearer <token>."
	case CodeForbidden:
		return "The operator has not enabled watches and the change feed: they need API tokens configured (REGISTRY_API_TOKENS or REGISTRY_API_TOKENS_FILE in the example server)."
	case CodeCursorExpired:
		return "Resume from details.oldest_cursor, and reconcile what may have been missed by looking the watched companies up."
	}
	return "Retry once; if it fails again, report the problem to the operator of this service."
}

// codeError is the type of the sentinel errors: an [Error] matches a sentinel
// by code.
type codeError Code

func (c codeError) Error() string { return "registry: " + string(c) }

// Sentinel errors, one per code. errors.Is(err, ErrNotFound) is true for any
// [*Error] whose Code is [CodeNotFound]. Each sentinel matches its own code
// only: [ErrUpstream] is a register that answered with an error or could not
// be reached, [ErrUpstreamTimeout] a register that did not answer in time;
// test both to treat every upstream failure alike.
var (
	ErrInvalidID          error = codeError(CodeInvalidID)
	ErrBadRequest         error = codeError(CodeBadRequest)
	ErrNotFound           error = codeError(CodeNotFound)
	ErrUnsupportedCountry error = codeError(CodeUnsupportedCountry)
	ErrRateLimited        error = codeError(CodeRateLimited)
	ErrNotImplemented     error = codeError(CodeNotImplemented)
	ErrUpstream           error = codeError(CodeUpstreamError)
	ErrUpstreamTimeout    error = codeError(CodeUpstreamTimeout)
	ErrInternal           error = codeError(CodeInternalError)
	ErrUnauthorized       error = codeError(CodeUnauthorized)
	ErrForbidden          error = codeError(CodeForbidden)
	ErrCursorExpired      error = codeError(CodeCursorExpired)
	// ErrCanceled matches [CodeCanceled]; such an error also matches
	// context.Canceled.
	ErrCanceled error = codeError(CodeCanceled)
)

// Error is the one error type of the library. Its JSON form is the
// interface's error envelope {"error":{code,message,hint,country,registry,details}}.
//
// Message, Hint and Details are shown to callers: they must never hold a
// credential. Err, Retryable and Gone stay inside the process.
type Error struct {
	// Code is the stable machine code.
	Code Code
	// Message is a human-readable sentence.
	Message string
	// Hint names the next action; the Registry fills in [Code.DefaultHint]
	// when a country module leaves it empty.
	Hint string
	// Country is the upper-case country code concerned, or "".
	Country string
	// Registry is the registry slug concerned, or "".
	Registry string
	// Details holds extra data; for rate_limited it holds "retry_after"
	// (whole seconds).
	Details map[string]any

	// Err is the underlying cause, for errors.Is and errors.As. It is never
	// serialised.
	Err error
	// Retryable marks an upstream failure that the Registry may retry once:
	// a timeout, a connection error, a 5xx or a malformed body.
	Retryable bool
	// Gone marks an entity the register has removed for legal reasons
	// (Brønnøysund's 410): the Registry purges it from the cache instead of
	// caching the failure.
	Gone bool
	// UpstreamStatus is the HTTP status the register answered with, or 0
	// when it sent no answer. The Registry logs it as the cause of a failed
	// attempt; it is never serialised.
	UpstreamStatus int
}

// Error returns "registry: <country> <code>: <message>".
func (e *Error) Error() string {
	s := "registry: "
	if e.Country != "" {
		s += e.Country + " "
	}
	s += string(e.Code)
	if e.Message != "" {
		s += ": " + e.Message
	}
	return s
}

// Unwrap returns the underlying cause.
func (e *Error) Unwrap() error { return e.Err }

// Is reports whether target is the sentinel of e's code, so that
// errors.Is(err, ErrNotFound) works.
func (e *Error) Is(target error) bool {
	c, ok := target.(codeError)
	return ok && Code(c) == e.Code
}

// HTTPStatus returns the HTTP status code of e's code.
func (e *Error) HTTPStatus() int { return e.Code.HTTPStatus() }

// RetryAfter returns details.retry_after in seconds, or 0 when absent.
func (e *Error) RetryAfter() int {
	switch v := e.Details["retry_after"].(type) {
	case int:
		return v
	case int64:
		return int(v)
	case float64:
		return int(v)
	case json.Number:
		n, _ := strconv.Atoi(string(v))
		return n
	}
	return 0
}

type envelopeBody struct {
	Code     Code           `json:"code"`
	Message  string         `json:"message"`
	Hint     string         `json:"hint"`
	Country  *string        `json:"country"`
	Registry *string        `json:"registry"`
	Details  map[string]any `json:"details"`
}

// MarshalJSON encodes e as the error envelope. An empty country or registry
// is null; details is always an object.
func (e *Error) MarshalJSON() ([]byte, error) {
	body := envelopeBody{
		Code:     e.Code,
		Message:  e.Message,
		Hint:     e.Hint,
		Country:  stringOrNil(e.Country),
		Registry: stringOrNil(e.Registry),
		Details:  e.Details,
	}
	if body.Hint == "" {
		body.Hint = e.Code.DefaultHint()
	}
	if body.Details == nil {
		body.Details = map[string]any{}
	}
	return json.Marshal(struct {
		Error envelopeBody `json:"error"`
	}{body})
}

// UnmarshalJSON decodes an error envelope, so clients of the REST and MCP
// surfaces can turn a failure body back into an *Error.
func (e *Error) UnmarshalJSON(b []byte) error {
	var env struct {
		Error *envelopeBody `json:"error"`
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(&env); err != nil {
		return err
	}
	if env.Error == nil || env.Error.Code == "" {
		return errors.New("registry: not an error envelope")
	}
	*e = Error{
		Code:    env.Error.Code,
		Message: env.Error.Message,
		Hint:    env.Error.Hint,
		Details: env.Error.Details,
	}
	if env.Error.Country != nil {
		e.Country = *env.Error.Country
	}
	if env.Error.Registry != nil {
		e.Registry = *env.Error.Registry
	}
	return nil
}

// AsError returns err as an [*Error] for rendering: an *Error anywhere in
// err's chain is returned as is; a cancelled context becomes canceled and a
// context deadline upstream_timeout; anything else becomes internal_error with a generic message (the original
// text may hold details that must not reach callers, so it stays in Err).
// AsError(nil) is nil.
func AsError(err error) *Error {
	if err == nil {
		return nil
	}
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	if errors.Is(err, context.Canceled) {
		return &Error{Code: CodeCanceled, Message: "The request was cancelled by its caller.", Err: err}
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return &Error{Code: CodeUpstreamTimeout, Message: "The operation did not finish before its deadline.", Err: err}
	}
	return &Error{Code: CodeInternalError, Message: "An unexpected error occurred inside the service.", Err: err}
}
