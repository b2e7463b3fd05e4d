//go:build race

package restserver

// raceEnabled is true when the tests run under the race detector, which
// makes the million-address limiter test take tens of seconds.
const raceEnabled = true
