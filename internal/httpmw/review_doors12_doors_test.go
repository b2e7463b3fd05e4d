package httpmw_test

import (
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/companyregistry/registry/internal/httpmw"
	"github.com/companyregistry/registry/internal/ops"
)

// TestMaxHeaderBytesDoorsAsksOnlyOfARefusal (doors12 item 1): the door
// check runs only for a request past the bound (a request within it pays
// nothing), and a refused request of the MCP door gets
// MCPHeadersTooLarge's envelope with its own Content-Length, any other
// HeadersTooLarge's.
func TestMaxHeaderBytesDoorsAsksOnlyOfARefusal(t *testing.T) {
	t.Parallel()
	asked := 0
	h := httpmw.MaxHeaderBytesDoors(1000, func(r *http.Request) bool {
		asked++
		return strings.HasPrefix(r.URL.Path, "/mcp")
	})(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusNoContent) }))
	type answer struct {
		Status        int
		ContentLength string
		Body          string
		Asked         int
	}
	do := func(path string, pad int) answer {
		asked = 0
		r := httptest.NewRequest(http.MethodPost, path, nil)
		r.Header.Set("X-Padding", strings.Repeat("a", pad))
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		return answer{w.Code, w.Header().Get("Content-Length"), w.Body.String(), asked}
	}
	refusal := func(body []byte) answer {
		return answer{http.StatusRequestHeaderFieldsTooLarge, strconv.Itoa(len(body)), string(body), 1}
	}
	restBody, _ := ops.EnvelopeJSON(httpmw.HeadersTooLarge(1000))
	mcpBody, _ := ops.EnvelopeJSON(httpmw.MCPHeadersTooLarge(1000))
	got := []answer{do("/mcp", 10), do("/mcp", 2000), do("/v1/NO/search", 2000)}
	want := []answer{{Status: http.StatusNoContent}, refusal(mcpBody), refusal(restBody)}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("answers (-want +got):\n%s", diff)
	}
	if e := httpmw.MCPHeadersTooLarge(1000); strings.Contains(e.Hint, "search") || e.Message != httpmw.HeadersTooLarge(1000).Message {
		t.Errorf("MCP refusal: %+v", e)
	}
}
