//go:build !unix

package redistest

import (
	"net"
	"testing"
)

// RefusedAddr returns a loopback address that refuses connections: here a
// port closed again (on Unix a port held by a socket that never listens,
// which no other test can be given).
func RefusedAddr(t testing.TB) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	_ = ln.Close()
	return addr
}
