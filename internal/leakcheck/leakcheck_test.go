package leakcheck

import (
	"testing"
	"time"
)

// TestWaitSeesALeakAndItsEnd: a goroutine that is still running is reported
// after the grace period; one that ends within it is not.
func TestWaitSeesALeakAndItsEnd(t *testing.T) {
	stop := make(chan struct{})
	go func() { <-stop }()
	if err := wait(200 * time.Millisecond); err == nil {
		t.Error("a running goroutine was not reported")
	}
	go func() { time.Sleep(300 * time.Millisecond); close(stop) }() // ends while wait polls
	if err := wait(Grace); err != nil {
		t.Errorf("a goroutine that ends within the grace period was reported: %v", err)
	}
}
