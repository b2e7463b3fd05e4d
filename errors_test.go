package registry_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	registry "github.com/companyregistry/registry"
)

// TestCodeHTTPStatus: the error table of the spec, code by code.
func TestCodeHTTPStatus(t *testing.T) {
	t.Parallel()
	want := map[registry.Code]int{
		"invalid_id": 400, "bad_request": 400, "not_found": 404, "unsupported_country": 404,
		"rate_limited": 429, "not_implemented": 501, "upstream_error": 502, "upstream_timeout": 504,
		"internal_error": 500,
		// change monitoring's watch and feed routes (issue 28)
		"unauthorized": 401, "forbidden": 403, "cursor_expired": 410,
	}
	got := map[registry.Code]int{}
	for _, c := range registry.Codes() {
		got[c] = c.HTTPStatus()
		if c.DefaultHint() == "" {
			t.Errorf("%s has no default hint", c)
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("codes and statuses (-spec +got):\n%s", diff)
	}
}

// TestErrorsIsByCode: errors.Is matches by code, through wrapping.
func TestErrorsIsByCode(t *testing.T) {
	t.Parallel()
	sentinels := map[registry.Code]error{
		registry.CodeInvalidID: registry.ErrInvalidID, registry.CodeBadRequest: registry.ErrBadRequest,
		registry.CodeNotFound: registry.ErrNotFound, registry.CodeUnsupportedCountry: registry.ErrUnsupportedCountry,
		registry.CodeRateLimited: registry.ErrRateLimited, registry.CodeNotImplemented: registry.ErrNotImplemented,
		registry.CodeUpstreamError: registry.ErrUpstream, registry.CodeUpstreamTimeout: registry.ErrUpstreamTimeout,
		registry.CodeInternalError: registry.ErrInternal, registry.CodeUnauthorized: registry.ErrUnauthorized,
		registry.CodeForbidden: registry.ErrForbidden, registry.CodeCursorExpired: registry.ErrCursorExpired,
	}
	for code, sentinel := range sentinels {
		err := fmt.Errorf("wrapped: %w", &registry.Error{Code: code, Err: io.ErrUnexpectedEOF})
		for other, s := range sentinels {
			if got := errors.Is(err, s); got != (other == code) {
				t.Errorf("errors.Is(%s error, %s sentinel) = %v", code, other, got)
			}
		}
		if !errors.Is(err, io.ErrUnexpectedEOF) {
			t.Errorf("%s: cause not reachable through Unwrap", code)
		}
		_ = sentinel
	}
}

// TestErrorEnvelope: the JSON form is the spec's envelope, with a hint
// always set, country/registry null when unknown and details an object.
func TestErrorEnvelope(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		err  *registry.Error
		want string
	}{
		{
			"full",
			&registry.Error{Code: registry.CodeRateLimited, Message: "Slow down.", Hint: "Wait.", Country: "GB",
				Registry: "companieshouse", Details: map[string]any{"retry_after": 42}, Err: errors.New("secret cause")},
			`{"error":{"code":"rate_limited","message":"Slow down.","hint":"Wait.","country":"GB","registry":"companieshouse","details":{"retry_after":42}}}`,
		},
		{
			"defaults",
			&registry.Error{Code: registry.CodeNotFound, Message: "No such unit."},
			`{"error":{"code":"not_found","message":"No such unit.","hint":"Search by name to find the right identifier; do not retry this identifier.","country":null,"registry":null,"details":{}}}`,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			b, err := json.Marshal(tc.err)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, string(b)); diff != "" {
				t.Errorf("envelope (-want +got):\n%s", diff)
			}
			var back registry.Error
			if err := json.Unmarshal(b, &back); err != nil {
				t.Fatal(err)
			}
			if back.Code != tc.err.Code || back.Country != tc.err.Country || back.Message != tc.err.Message {
				t.Errorf("decoded %+v", back)
			}
			if tc.err.Code == registry.CodeRateLimited && back.RetryAfter() != 42 {
				t.Errorf("RetryAfter = %d", back.RetryAfter())
			}
		})
	}
	if err := json.Unmarshal([]byte(`{"country":"NO"}`), new(registry.Error)); err == nil {
		t.Error("decoded a non-envelope")
	}
}

func TestAsError(t *testing.T) {
	t.Parallel()
	if registry.AsError(nil) != nil {
		t.Error("AsError(nil) != nil")
	}
	e := registry.AsError(errors.New("internal detail /secret/path"))
	if e.Code != registry.CodeInternalError || strings.Contains(e.Message, "secret") {
		t.Errorf("plain error: %+v", e)
	}
	orig := &registry.Error{Code: registry.CodeNotFound}
	if registry.AsError(fmt.Errorf("x: %w", orig)) != orig {
		t.Error("AsError did not find the wrapped *Error")
	}
	if got := (&registry.Error{Code: registry.CodeNotFound, Country: "NO", Message: "gone"}).Error(); got != "registry: NO not_found: gone" {
		t.Errorf("Error() = %q", got)
	}
}
