//go:build !unix

package cputime_test

import (
	"testing"

	"github.com/companyregistry/registry/internal/cputime"
)

func TestProcessNotMeasured(t *testing.T) {
	if got := cputime.Process(); got != 0 {
		t.Errorf("Process() = %v where it is not measured, want 0", got)
	}
}
