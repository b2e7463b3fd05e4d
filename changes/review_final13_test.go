package changes_test

import (
	"bytes"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/companyregistry/registry/changes"
)

// TestReview_Final13RotateBlankIsNotJSONWhitespace: FuzzParseRotateRequest
// (7175614) says it is a differential with encoding/json's reading, but
// its oracle judges blankness with bytes.TrimSpace, the very call
// ParseRotateRequest makes: Unicode white space (\v, \f, U+0085, U+00A0,
// U+2028, U+3000). JSON's white space is space, tab, LF and CR only
// (RFC 8259 §2; encoding/json refuses each body below), and the route's
// texts promise "No body, or {}" (OpenAPI) and "Send no body, or an empty
// JSON object {}" (the hint). So these bodies, neither empty nor JSON, are
// accepted as a rotation with no parameters, and the fuzzer can never
// report it: oracle and code agree by construction. Suggested fix: trim
// " \t\r\n" only (bytes.Trim(body, " \t\r\n")) in ParseRotateRequest, and
// in the oracle.
func TestReview_Final13RotateBlankIsNotJSONWhitespace(t *testing.T) {
	got := map[string]string{}
	want := map[string]string{}
	for _, body := range []string{"\v", "\f", "\u0085", "\u00a0", "\u2028", "\u3000", " \u00a0\n"} {
		if len(bytes.Trim([]byte(body), " \t\r\n")) == 0 {
			t.Fatalf("%q is JSON white space only: not a case of this test", body)
		}
		got[body] = "accepted"
		if err := changes.ParseRotateRequest([]byte(body)); err != nil {
			got[body] = string(asError(t, err).Code)
		}
		want[body] = "bad_request"
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("bodies of Unicode (not JSON) white space (-want +got):\n%s", diff)
	}
}
