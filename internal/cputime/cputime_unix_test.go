//go:build unix

package cputime_test

import (
	"testing"

	"github.com/companyregistry/registry/internal/cputime"
)

// TestProcessCountsWork: the CPU time grows with work done (the loop ends
// once the kernel has counted some), and never goes back.
func TestProcessCountsWork(t *testing.T) {
	before := cputime.Process()
	if before <= 0 {
		t.Fatalf("Process() = %v in a running test, want more than 0", before)
	}
	x := uint64(1)
	for cputime.Process() == before {
		for range 1 << 20 {
			x = x*6364136223846793005 + 1442695040888963407
		}
	}
	if after := cputime.Process(); after <= before {
		t.Errorf("Process() went from %v to %v (%d)", before, after, x)
	}
}
