package restserver_test

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestReview_Tidy13ReadErrorAnswerChangeUnnamed: 054625d's one readBody
// also changed the answer to a body that cannot be read (a request cut
// short of its Content-Length) on all three routes: create and update gave
// the hint "Send one JSON object of at most 1 MiB (10,000 identifiers
// fit).", rotate "Send no body, or an empty JSON object {}."; all three now
// give "Send the request again with a complete body.". The CHANGELOG's
// entry names only the oversize message and hint, so a client matching on
// the old read-error hint is not told.
func TestReview_Tidy13ReadErrorAnswerChangeUnnamed(t *testing.T) {
	t.Parallel()
	h := newChangeHarness(t, bothTokens())
	res := h.call(t, "POST", "/v1/watches", erpToken, `{"country":"ZZ","ids":["123456"],"url":"https://93.184.216.34/hook"}`)
	if res.status != 201 {
		t.Fatalf("create: %d %s", res.status, res.body)
	}
	watch := "/v1/watches/" + decode(t, res.body)["id"].(string)
	hints := map[string]string{}
	for _, r := range []struct{ name, method, path string }{
		{"create", "POST", "/v1/watches"},
		{"update", "PATCH", watch},
		{"rotate", "POST", watch + "/secret"},
	} {
		status, msg, hint := cutShort(t, h.srv.Listener.Addr().String(), r.method, r.path)
		if status != 400 || msg != "The body could not be read." {
			t.Fatalf("%s cut short: %d %q", r.name, status, msg)
		}
		hints[r.name] = hint
	}
	t.Logf("read-error hints now: %v", hints)
	b, err := os.ReadFile("../CHANGELOG.md")
	if err != nil {
		t.Fatal(err)
	}
	entry := ""
	for _, e := range strings.Split(string(b), "\n- ") {
		if strings.Contains(e, "TestWatchBodyTooLarge") {
			entry = strings.Join(strings.Fields(e), " ")
		}
	}
	got := map[string]bool{}
	for name, hint := range hints {
		got[name] = strings.Contains(entry, hint) || strings.Contains(entry, "could not be read")
	}
	want := map[string]bool{"create": true, "update": true, "rotate": true}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("CHANGELOG entry of TestWatchBodyTooLarge names the changed read-error answer (-want +got):\n%s\nentry: %s", diff, entry)
	}
}

// cutShort sends method path with a Content-Length of 100 and 10 bytes of
// body, closes its writing side and returns the answer's status, message
// and hint.
func cutShort(t *testing.T, addr, method, path string) (int, string, string) {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	fmt.Fprintf(c, "%s %s HTTP/1.1\r\nHost: %s\r\nAuthorization: Bearer %s\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"url\":\"x", method, path, addr, erpToken)
	if err := c.(*net.TCPConn).CloseWrite(); err != nil {
		t.Fatal(err)
	}
	res, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	e := errorOf(t, body)
	return res.StatusCode, e.Message, e.Hint
}
