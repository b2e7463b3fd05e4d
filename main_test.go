package registry_test

import (
	"testing"

	"github.com/companyregistry/registry/internal/leakcheck"
)

// TestMain fails the run when a goroutine outlives the tests, such as a
// batch worker or a shared fetch nobody waits for.
func TestMain(m *testing.M) { leakcheck.Main(m) }
