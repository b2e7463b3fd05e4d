package restserver

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/companyregistry/registry/internal/catalog"
)

// TestHandlersMatchCatalog: every operation of the catalogue has a
// handler, and every handler an operation.
func TestHandlersMatchCatalog(t *testing.T) {
	t.Parallel()
	s := &Server{text: &textResources{}}
	var handlers, ops []string
	for name := range s.handlers() {
		handlers = append(handlers, name)
	}
	for _, op := range catalog.Operations() {
		ops = append(ops, op.Name)
	}
	slices.Sort(handlers)
	slices.Sort(ops)
	if diff := cmp.Diff(ops, handlers); diff != "" {
		t.Errorf("operations (-catalogue +handlers):\n%s", diff)
	}
}
