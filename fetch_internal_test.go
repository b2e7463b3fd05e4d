package registry

import (
	"reflect"
	"runtime"
	"testing"

	"github.com/companyregistry/registry/internal/testwait"
)

// TestRegistryFetchNamesAwaitFetch: tests outside this package wait for
// the callers of a shared fetch by the name of the function they wait in
// (testwait.RegistryFetch, read from goroutine stacks). A name that no
// longer matches made those waits hang until the test binary's deadline
// (it happened when fetch was split in two); this test fails at once
// instead.
func TestRegistryFetchNamesAwaitFetch(t *testing.T) {
	t.Parallel()
	if got := runtime.FuncForPC(reflect.ValueOf(awaitFetch).Pointer()).Name(); got != testwait.RegistryFetch {
		t.Errorf("callers of a fetch wait in %s; testwait.RegistryFetch is %s", got, testwait.RegistryFetch)
	}
}
