// Package leakcheck fails a test binary whose goroutines outlive its tests.
//
// It wraps go.uber.org/goleak with a longer grace period: a server
// connection that has just been closed sleeps up to 500 ms in net/http
// (closeWriteAndWait) before its goroutine ends, longer than goleak's own
// retries wait (about 0.4 s), so a loaded machine reported such a goroutine
// as a leak now and then. Main keeps asking for up to Grace before it calls
// anything a leak; a goroutine that is still there after that is one. The
// grace is a hang guard, not a measure of speed: a leak never ends, so a
// long grace costs only a failing run its length, while a starved machine
// may take seconds to let a finishing goroutine end.
package leakcheck

import (
	"fmt"
	"os"
	"testing"
	"time"

	"go.uber.org/goleak"
)

// Grace is how long Main waits for goroutines to finish after the tests.
const Grace = 30 * time.Second

// Main runs the tests of m and then exits non-zero when goroutines other
// than the runtime's and the test framework's are still running after
// Grace. Call it from TestMain.
func Main(m *testing.M) {
	os.Exit(Run(m))
}

// Run is Main without the exit: it returns the code to exit with, for a
// TestMain that has more to do after the check (stopping a server it
// started, for example).
func Run(m *testing.M) int {
	code := m.Run()
	if code == 0 {
		if err := wait(Grace); err != nil {
			fmt.Fprintln(os.Stderr, "leakcheck: goroutines outlived the tests:", err)
			code = 1
		}
	}
	return code
}

// wait polls goleak until no unexpected goroutine is left or grace passes.
func wait(grace time.Duration) error {
	deadline := time.Now().Add(grace)
	for {
		err := goleak.Find()
		if err == nil || time.Now().After(deadline) {
			return err
		}
		time.Sleep(100 * time.Millisecond)
	}
}
