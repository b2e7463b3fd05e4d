//go:build linux

package mcpserver

import (
	"bytes"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestPipeRoom: on a pipe, a write has room when the pipe is empty and the
// write within its capacity (F_GETPIPE_SZ); files and buffers have no
// check.
func TestPipeRoom(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	room := pipeRoom(w)
	if room == nil {
		t.Fatal("pipeRoom of a pipe is nil")
	}
	size, _, e := syscall.Syscall(syscall.SYS_FCNTL, w.Fd(), fGetPipeSz, 0)
	if e != 0 {
		t.Fatal(e)
	}
	if !room(1) || !room(int(size)) {
		t.Errorf("an empty pipe of %d bytes: no room for 1 or %d bytes", size, size)
	}
	if room(int(size) + 1) {
		t.Errorf("room for %d bytes in a pipe of %d", size+1, size)
	}
	if _, err := w.Write([]byte("x")); err != nil {
		t.Fatal(err)
	}
	if room(1) {
		t.Error("room in a pipe that holds a byte")
	}
	if _, err := r.Read(make([]byte, 1)); err != nil {
		t.Fatal(err)
	}
	if !room(1) {
		t.Error("no room once the byte is read")
	}
	f, err := os.Create(filepath.Join(t.TempDir(), "out"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if pipeRoom(f) != nil || pipeRoom(&bytes.Buffer{}) != nil {
		t.Error("pipeRoom of a file or a buffer is not nil")
	}
}

// socketpair returns the two ends of a Unix socketpair of typ as files.
func socketpair(t *testing.T, typ int) (a, b *os.File) {
	t.Helper()
	fds, err := syscall.Socketpair(syscall.AF_UNIX, typ, 0)
	if err != nil {
		t.Fatal(err)
	}
	a, b = os.NewFile(uintptr(fds[0]), "a"), os.NewFile(uintptr(fds[1]), "b")
	t.Cleanup(func() { _ = a.Close(); _ = b.Close() })
	return a, b
}

// TestSocketRoom: on a Unix stream socket, a write has room when all the
// socket sent is read and the write is at most maxSocketWrite and a
// quarter of its send buffer; a datagram socket has no check.
func TestSocketRoom(t *testing.T) {
	w, r := socketpair(t, syscall.SOCK_STREAM)
	room := pipeRoom(w)
	if room == nil {
		t.Fatal("pipeRoom of a Unix stream socket is nil")
	}
	if !room(1) || !room(maxSocketWrite) {
		t.Errorf("an idle socket: no room for 1 or %d bytes", maxSocketWrite)
	}
	if room(maxSocketWrite + 1) {
		t.Errorf("room for %d bytes", maxSocketWrite+1)
	}
	if _, err := w.Write([]byte("x")); err != nil {
		t.Fatal(err)
	}
	if room(1) {
		t.Error("room with a byte sent and not read")
	}
	if _, err := r.Read(make([]byte, 1)); err != nil {
		t.Fatal(err)
	}
	if !room(1) {
		t.Error("no room once the byte is read")
	}
	d, _ := socketpair(t, syscall.SOCK_DGRAM)
	if pipeRoom(d) != nil {
		t.Error("pipeRoom of a datagram socket is not nil")
	}
}
