//go:build linux

package mcpserver

import (
	"io"
	"os"
	"syscall"
	"unsafe"
)

// fGetPipeSz is fcntl(2)'s F_GETPIPE_SZ: the capacity of a pipe in bytes.
const fGetPipeSz = 1032

// pipeRoom returns, when w is a pipe (an *os.File on a FIFO, as a client's
// stdout pipe is), a check that a write of n bytes to it cannot block: the
// pipe holds nothing (ioctl FIONREAD, which Linux answers on either end of
// a pipe) and n is within its capacity (F_GETPIPE_SZ); an empty pipe has
// every one of its slots free. It returns nil for anything else.
func pipeRoom(w io.Writer) func(n int) bool {
	f, ok := w.(*os.File)
	if !ok {
		return nil
	}
	fi, err := f.Stat()
	if err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		return nil
	}
	rc, err := f.SyscallConn()
	if err != nil {
		return nil
	}
	return func(n int) bool {
		room := false
		err := rc.Control(func(fd uintptr) {
			size, _, e := syscall.Syscall(syscall.SYS_FCNTL, fd, fGetPipeSz, 0)
			if e != 0 || int(size) < n {
				return
			}
			var queued int32
			_, _, e = syscall.Syscall(syscall.SYS_IOCTL, fd, syscall.TIOCINQ, uintptr(unsafe.Pointer(&queued)))
			room = e == 0 && queued == 0
		})
		return err == nil && room
	}
}
