package mcpserver

import (
	"syscall"
	"testing"
)

// TestReview_SocketRoomSmallSendBuffer: with a send buffer below 128 KiB
// (SO_SNDBUF set by a client, or net.core.wmem_default lowered), the
// quarter-of-SO_SNDBUF bound of socketIdle is the one that acts; with the
// default buffer (212,992 bytes here) only maxSocketWrite does, so
// TestSocketRoom passes with that clause removed. At the bound, a write on
// the idle socket, made non-blocking, goes out whole (it would not have
// blocked); one byte more has no room.
func TestReview_SocketRoomSmallSendBuffer(t *testing.T) {
	for _, set := range []int{1, 2048, 4096, 16384} {
		w, _ := socketpair(t, syscall.SOCK_STREAM)
		fd := int(w.Fd())
		if err := syscall.SetsockoptInt(fd, syscall.SOL_SOCKET, syscall.SO_SNDBUF, set); err != nil {
			t.Fatal(err)
		}
		sndbuf, err := syscall.GetsockoptInt(fd, syscall.SOL_SOCKET, syscall.SO_SNDBUF)
		if err != nil {
			t.Fatal(err)
		}
		room := pipeRoom(w)
		n := sndbuf / 4
		if n >= maxSocketWrite {
			t.Fatalf("SO_SNDBUF %d: a quarter (%d) is not below maxSocketWrite", sndbuf, n)
		}
		if room(n + 1) {
			t.Errorf("SO_SNDBUF %d: room for %d bytes, more than a quarter of it", sndbuf, n+1)
		}
		if !room(n) {
			t.Errorf("SO_SNDBUF %d: no room for %d bytes on an idle socket", sndbuf, n)
			continue
		}
		if err := syscall.SetNonblock(fd, true); err != nil {
			t.Fatal(err)
		}
		if k, err := syscall.Write(fd, make([]byte, n)); k != n || err != nil {
			t.Errorf("SO_SNDBUF %d: a non-blocking write of %d bytes wrote %d, %v", sndbuf, n, k, err)
		}
	}
}
