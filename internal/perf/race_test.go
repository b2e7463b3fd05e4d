//go:build race

package perf

// raceEnabled is true under the race detector, which makes the heavy
// memory tests take minutes; they are skipped then.
const raceEnabled = true
