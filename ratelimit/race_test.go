//go:build race

package ratelimit_test

// raceEnabled is true when the tests run under the race detector, which
// makes the million-key limiter test take tens of seconds.
const raceEnabled = true
