//go:build unix

package dispatch_test

import (
	"syscall"
	"time"
)

// processCPU is the CPU time (user and system) the test process has used,
// every goroutine included; a benchmark's share of it does not grow when
// other processes load the machine, unlike its wall time.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
