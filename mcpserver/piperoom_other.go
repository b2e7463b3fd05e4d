//go:build !linux

package mcpserver

import "io"

// pipeRoom returns nil: off Linux, stdioIn's answers are always written by
// stdioOut's goroutine.
func pipeRoom(io.Writer) func(n int) bool { return nil }
