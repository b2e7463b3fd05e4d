package httpmw_test

import (
	"bufio"
	"net"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/companyregistry/registry/internal/httpmw"
)

// TestReview_Fix11bMaxHeaderBytesCountsTheWire (rev-fix11b): MaxHeaderBytes
// says it counts the request line and headers "as they arrive on the wire"
// and holds a handler to an exact bound, now documented as 431 with the
// envelope past the bound. It counts what net/http leaves in the request
// instead: net/http removes Transfer-Encoding from r.Header, so a chunked
// request 20 bytes over the bound is answered (200), and it adds a "Host: "
// line that an HTTP/1.0 request without Host never sent, so such a request
// 4 bytes under the bound is refused (431).
func TestReview_Fix11bMaxHeaderBytesCountsTheWire(t *testing.T) {
	const line = "POST /x HTTP/1.1\r\n"
	chunked := line + "Host: h\r\nTransfer-Encoding: chunked\r\n"
	const line10 = "GET /x HTTP/1.0\r\n"
	noHost := line10 + "X-A: b\r\n"
	for _, tc := range []struct {
		name, head, tail string
		limit, want      int
	}{
		{"chunked, 20 bytes over", chunked, "\r\n0\r\n\r\n", len(chunked) - 20, http.StatusRequestHeaderFieldsTooLarge},
		{"HTTP/1.0 without Host, 4 bytes under", noHost, "\r\n", len(noHost) + 4, http.StatusOK},
	} {
		srv := httptest.NewServer(httpmw.MaxHeaderBytes(tc.limit)(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {})))
		t.Cleanup(srv.Close)
		c, err := net.Dial("tcp", srv.Listener.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		if _, err := c.Write([]byte(tc.head + tc.tail)); err != nil {
			t.Fatal(err)
		}
		resp, err := http.ReadResponse(bufio.NewReader(c), nil)
		if err != nil {
			t.Fatal(err)
		}
		_ = resp.Body.Close()
		_ = c.Close()
		if diff := cmp.Diff(tc.want, resp.StatusCode); diff != "" {
			t.Errorf("%s: %d bytes on the wire, bound %d (-want +got):\n%s", tc.name, len(tc.head), tc.limit, diff)
		}
	}
}
