package mcpserver_test

import (
	"testing"

	"github.com/companyregistry/registry/internal/leakcheck"
)

// TestMain fails the package's tests when any goroutine outlives them
// (issue #9): every server, client connection and shared upstream fetch a
// test starts must be finished by the end of the run.
func TestMain(m *testing.M) {
	leakcheck.Main(m)
}
