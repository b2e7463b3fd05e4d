// Package cputime reads the CPU time of the running process, for the
// benchmarks that report it: a benchmark's share of the process's CPU time
// does not grow when other processes load the machine, unlike its wall
// time.
package cputime

import "time"

// Process returns the CPU time (user and system) the process has used,
// every goroutine included; 0 where it is not measured.
func Process() time.Duration { return process() }
