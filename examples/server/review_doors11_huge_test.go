package main

import (
	"net/url"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestReview_Doors11HugeQueryIsAJSONError (rev-doors11): /llms-full.txt
// says "All answer application/json except the calendar feed; errors are
// always JSON" and "Search: q 1 to 256 bytes; ... outside the range is
// bad_request"; the spec says every failure on both surfaces has the error
// envelope. A search whose q is 17,000 bytes (an ERP pasting a whole field
// into the name) is answered by the program's REST door with 431 and the
// plain text "431 Request Header Fields Too Large" (httpmw.MaxHeaderBytes
// in front of the REST routes), where the MCP door answers the same name
// with the JSON envelope, code bad_request.
func TestReview_Doors11HugeQueryIsAJSONError(t *testing.T) {
	t.Parallel()
	p := startProgram(t, programConfig{brreg: fakeBrreg(t, nil, nil).URL})
	for _, path := range []string{"/llms-full.txt"} {
		if r := p.get(t, path); !strings.Contains(r.body, "errors are always JSON") || !strings.Contains(r.body, "`q` 1 to 256 bytes") {
			t.Fatalf("%s no longer makes the claims this test checks", path)
		}
	}
	q := strings.Repeat("x", 17000)
	r := p.get(t, "/v1/NO/search?q="+url.QueryEscape(q))
	type answer struct {
		Status      int
		ContentType string
		Code        string
	}
	got := answer{Status: r.status, ContentType: r.header.Get("Content-Type")}
	if strings.HasPrefix(got.ContentType, "application/json") {
		got.Code = string(envelope(t, r.body).Code)
	}
	// 431, not 400 (fix-doors11): the status HTTP has for this refusal,
	// the one net/http itself answers for a request past its read bound,
	// so that the status does not depend on which layer refused.
	if diff := cmp.Diff(answer{431, "application/json", "bad_request"}, got); diff != "" {
		t.Errorf("GET /v1/NO/search?q=<17000 bytes> (-as documented +got):\n%s\nbody: %.200s", diff, r.body)
	}
}
