//go:build !race

package onewrite

const raceEnabled = false
