//go:build race

package onewrite

// raceEnabled is true when the tests run under the race detector, under
// which sync.Pool drops items at random.
const raceEnabled = true
