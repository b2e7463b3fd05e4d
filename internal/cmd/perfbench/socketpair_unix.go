//go:build unix

package main

import (
	"os"
	"syscall"
)

// socketpair returns the two ends of a Unix stream socketpair, each in
// blocking mode as a child's stdio is, and closed on exec (the child gets
// only what exec.Cmd hands it).
func socketpair() (client, server *os.File, err error) {
	syscall.ForkLock.RLock()
	fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
	if err == nil {
		syscall.CloseOnExec(fds[0])
		syscall.CloseOnExec(fds[1])
	}
	syscall.ForkLock.RUnlock()
	if err != nil {
		return nil, nil, err
	}
	return os.NewFile(uintptr(fds[0]), "client"), os.NewFile(uintptr(fds[1]), "server"), nil
}
