package httpmw

import (
	"net"
	"net/http/httptest"
	"testing"
)

// TestReview_ConnContextCostsOneRequestConnections: doc/decisions.md ("The
// client address is parsed once a connection") and BENCHMARKS.md weigh
// ConnContext as one allocation and a ParseAddrPort less a request, and
// name no cost. ConnContext itself, run once a connection on http.Server's
// accept loop, formats the peer (c.RemoteAddr().String(), which net/http
// does again for RemoteAddr), parses it, makes its text, and allocates the
// Peer and a context layer. For a connection that carries one request
// (Connection: close, HTTP/1.0 clients, balancer health checks) the
// request's client address now costs more allocations than before the
// change, not one less. Measured here over a real loopback TCP connection.
// Kept (doc/decisions.md, "The client address is parsed once a
// connection"): the test bounds that cost at the five allocations
// documented.
func TestReview_ConnContextCostsOneRequestConnections(t *testing.T) {
	conn := acceptedConn(t)

	s := New(Config{})
	w := httptest.NewRecorder()
	base := httptest.NewRequest("GET", "/", nil)
	base.RemoteAddr = conn.RemoteAddr().String()
	without := testing.AllocsPerRun(200, func() { _ = s.begin(w, base) })
	with := testing.AllocsPerRun(200, func() {
		r := *base // the request's own copy, as net/http makes one a request
		r2 := r.WithContext(ConnContext(base.Context(), conn))
		_ = s.begin(w, r2)
	}) - testing.AllocsPerRun(200, func() {
		r := *base
		_ = r.WithContext(base.Context())
	})
	if with > without+5 {
		t.Errorf("a connection of one request: %v allocations for its client address with ConnContext, %v without; the documented cost is 5 more", with, without)
	}
}

// acceptedConn returns the server side of a real loopback TCP connection,
// closed with the test.
func acceptedConn(t *testing.T) net.Conn {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ln.Close() })
	client, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = client.Close() })
	conn, err := ln.Accept()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	return conn
}
