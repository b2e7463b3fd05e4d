package mcpserver_test

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestFastPathKeepsTheConnection: the fast path closes the body it read to
// its end (so that net/http skips its own read of the rest); the connection
// stays open for the next request, whether the body came with a length or
// chunked, and nothing in the answer says otherwise (no Connection header).
// Each answer is the one a fresh connection gets (the cached lookup).
func TestFastPathKeepsTheConnection(t *testing.T) {
	srv, _ := newHTTPServer(t)
	post(t, srv.URL+"/mcp", lookupCall, nil) // fills the cache
	_, want := post(t, srv.URL+"/mcp", lookupCall, nil)
	conn, err := net.Dial("tcp", srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	br := bufio.NewReader(conn)
	chunked := "Transfer-Encoding: chunked\r\n\r\n" + strconv.FormatInt(int64(len(lookupCall)), 16) + "\r\n" + lookupCall + "\r\n0\r\n\r\n"
	length := "Content-Length: " + strconv.Itoa(len(lookupCall)) + "\r\n\r\n" + lookupCall
	for i, rest := range []string{length, chunked, length, chunked} {
		req := "POST /mcp HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n" +
			"Accept: application/json, text/event-stream\r\nMcp-Protocol-Version: 2025-06-18\r\n" + rest
		if _, err := io.WriteString(conn, req); err != nil {
			t.Fatalf("request %d: %v", i, err)
		}
		resp, err := http.ReadResponse(br, nil)
		if err != nil {
			t.Fatalf("request %d: %v", i, err)
		}
		got, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			t.Fatalf("request %d: %v", i, err)
		}
		if resp.StatusCode != http.StatusOK || resp.Close || resp.Header.Get("Connection") != "" {
			t.Errorf("request %d: status %d, close %v, Connection %q; want 200 on an open connection",
				i, resp.StatusCode, resp.Close, resp.Header.Get("Connection"))
		}
		if diff := cmp.Diff(string(want), string(got)); diff != "" {
			t.Errorf("request %d: answer differs from a fresh connection's (-want +got):\n%s", i, diff)
		}
		if !strings.Contains(string(got), `"structuredContent"`) {
			t.Errorf("request %d: not a lookup result: %s", i, got)
		}
	}
}
