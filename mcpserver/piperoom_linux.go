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

// maxSocketWrite bounds a write to a Unix stream socket that pipeRoom
// vouches for: the kernel sends such a write as one buffer (it splits
// writes into buffers of at most half the send buffer and at most 32 KiB
// of pages and a head), which an idle socket always takes.
const maxSocketWrite = 32 << 10

// pipeRoom returns, when w is a pipe or a Unix stream socket (an *os.File
// on one, as the stdout a client gives its child is: a pipe from Go or
// Python, a socketpair from Node's libuv), a check that a write of n bytes
// to it cannot block; nil for anything else.
//   - A pipe: it holds nothing (ioctl FIONREAD, which Linux answers on
//     either end of a pipe) and n is within its capacity (F_GETPIPE_SZ): an
//     empty pipe has every one of its slots free.
//   - A Unix stream socket: nothing it sent is unread (ioctl SIOCOUTQ: the
//     bytes the socket's send buffer is charged for, until the peer reads
//     them) and n is at most a quarter of its send buffer (SO_SNDBUF) and
//     maxSocketWrite: a sender waits only while its buffer is charged its
//     full size.
func pipeRoom(w io.Writer) func(n int) bool {
	f, ok := w.(*os.File)
	if !ok {
		return nil
	}
	fi, err := f.Stat()
	if err != nil {
		return nil
	}
	rc, err := f.SyscallConn()
	if err != nil {
		return nil
	}
	var check func(fd uintptr, n int) bool
	switch mode := fi.Mode(); {
	case mode&os.ModeNamedPipe != 0:
		check = pipeEmpty
	case mode&os.ModeSocket != 0:
		unixStream := false
		_ = rc.Control(func(fd uintptr) {
			domain, err1 := syscall.GetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_DOMAIN)
			typ, err2 := syscall.GetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_TYPE)
			unixStream = err1 == nil && err2 == nil && domain == syscall.AF_UNIX && typ == syscall.SOCK_STREAM
		})
		if !unixStream {
			return nil
		}
		check = socketIdle
	default:
		return nil
	}
	return func(n int) bool {
		room := false
		err := rc.Control(func(fd uintptr) { room = check(fd, n) })
		return err == nil && room
	}
}

// pipeEmpty reports whether the pipe fd is empty and holds n bytes.
func pipeEmpty(fd uintptr, n int) bool {
	size, _, e := syscall.Syscall(syscall.SYS_FCNTL, fd, fGetPipeSz, 0)
	if e != 0 || int(size) < n {
		return false
	}
	return queued(fd, syscall.TIOCINQ) == 0
}

// socketIdle reports whether everything the Unix stream socket fd sent is
// read and n bytes go out as one buffer its send buffer takes.
func socketIdle(fd uintptr, n int) bool {
	sndbuf, err := syscall.GetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_SNDBUF)
	if err != nil || n > maxSocketWrite || n > sndbuf/4 {
		return false
	}
	return queued(fd, syscall.TIOCOUTQ) == 0 // SIOCOUTQ
}

// queued returns what ioctl req (FIONREAD or SIOCOUTQ) says of fd, or -1.
func queued(fd uintptr, req uintptr) int {
	var n int32
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, fd, req, uintptr(unsafe.Pointer(&n))); e != 0 {
		return -1
	}
	return int(n)
}
