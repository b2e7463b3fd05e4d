//go:build !race

package restserver

const raceEnabled = false
