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
// write within its capacity (F_GETPIPE_SZ); anything else has no check.
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
