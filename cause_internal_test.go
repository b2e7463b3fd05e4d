package registry

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"syscall"
	"testing"
)

// TestCauseOf (issue 13, "Ops can see why an upstream call failed"): the
// cause is named from types and status only, so the URL in a *url.Error
// (which holds the identifier) never reaches it.
func TestCauseOf(t *testing.T) {
	t.Parallel()
	const secretURL = "https://api.example/company/12345678?key=SECRET"
	wrap := func(err error) error { return &url.Error{Op: "Get", URL: secretURL, Err: err} }
	tests := []struct {
		name string
		e    *Error
		want string
	}{
		{"status", &Error{Code: CodeUpstreamError, UpstreamStatus: 503, Err: wrap(errors.New("x"))}, "http 503"},
		{"dns", &Error{Code: CodeUpstreamError, Err: wrap(&net.OpError{Op: "dial", Err: &net.DNSError{Err: "no such host", Name: "api.example", IsNotFound: true}})}, "dns: no such host"},
		{"dns timeout", &Error{Code: CodeUpstreamError, Err: wrap(&net.DNSError{Err: "i/o timeout", IsTimeout: true})}, "dns: timeout"},
		{"refused", &Error{Code: CodeUpstreamError, Err: wrap(&net.OpError{Op: "dial", Err: os.NewSyscallError("connect", syscall.ECONNREFUSED)})}, "connection refused"},
		{"reset", &Error{Code: CodeUpstreamError, Err: wrap(&net.OpError{Op: "read", Err: os.NewSyscallError("read", syscall.ECONNRESET)})}, "connection reset"},
		{"deadline", &Error{Code: CodeUpstreamTimeout, Err: wrap(context.DeadlineExceeded)}, "timeout"},
		{"tls", &Error{Code: CodeUpstreamError, Err: wrap(&tls.CertificateVerificationError{Err: errors.New("bad")})}, "tls"},
		{"eof", &Error{Code: CodeUpstreamError, Err: wrap(io.ErrUnexpectedEOF)}, "connection closed early"},
		{"json", &Error{Code: CodeUpstreamError, Err: fmt.Errorf("decode: %w", &json.SyntaxError{Offset: 3})}, "malformed JSON"},
		{"other net op", &Error{Code: CodeUpstreamError, Err: wrap(&net.OpError{Op: "write", Err: errors.New("broken")})}, "network: write"},
		{"no cause", &Error{Code: CodeNotFound}, "not_found"},
		{"unknown", &Error{Code: CodeUpstreamError, Err: errors.New(secretURL)}, "upstream_error"},
	}
	for _, tc := range tests {
		if got := causeOf(tc.e); got != tc.want {
			t.Errorf("%s: causeOf = %q, want %q", tc.name, got, tc.want)
		}
	}
}
