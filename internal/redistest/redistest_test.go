package redistest_test

import (
	"net"
	"testing"

	"github.com/companyregistry/registry/internal/redistest"
)

// TestProxyHoldsItsPort: a proxy that is down keeps its address (no other
// listener can be given it), fails each call of a client at once, and
// forwards again when up.
func TestProxyHoldsItsPort(t *testing.T) {
	t.Parallel()
	mr, proxy, rdb := redistest.MiniBehindProxy(t)
	if err := rdb.Set(t.Context(), "k", "v", 0).Err(); err != nil {
		t.Fatal(err)
	}
	proxy.Down()
	if ln, err := net.Listen("tcp", proxy.Addr()); err == nil {
		ln.Close()
		t.Fatal("another listener was given the address of a proxy that is down")
	}
	for range 3 {
		if err := rdb.Get(t.Context(), "k").Err(); err == nil {
			t.Fatal("a call went through a proxy that is down")
		}
	}
	proxy.Up(mr.Addr())
	if v, err := rdb.Get(t.Context(), "k").Result(); err != nil || v != "v" {
		t.Fatalf("after Up: %q, %v", v, err)
	}
}

// TestRefusedAddr: the address refuses connections.
func TestRefusedAddr(t *testing.T) {
	t.Parallel()
	if c, err := net.Dial("tcp", redistest.RefusedAddr(t)); err == nil {
		c.Close()
		t.Fatal("a connection was accepted")
	}
}

// TestServerStopStart: the address stays the same across a stop and a
// start, and the server started again is empty.
func TestServerStopStart(t *testing.T) {
	t.Parallel()
	srv := redistest.StartServer(t)
	rdb := redistest.Client(srv.Addr())
	t.Cleanup(func() { _ = rdb.Close() })
	if err := rdb.Set(t.Context(), "k", "v", 0).Err(); err != nil {
		t.Fatal(err)
	}
	srv.Stop()
	if err := rdb.Get(t.Context(), "k").Err(); err == nil {
		t.Fatal("a call went through to a stopped server")
	}
	srv.Start()
	if n, err := rdb.Exists(t.Context(), "k").Result(); err != nil || n != 0 {
		t.Fatalf("after Start: exists %d, %v; want an empty server", n, err)
	}
}
