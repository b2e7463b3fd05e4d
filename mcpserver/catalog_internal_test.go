package mcpserver

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/companyregistry/registry/internal/catalog"
)

// TestToolFuncsMatchCatalog: every tool of the catalogue (change
// monitoring's included) has a function, and every function a tool.
func TestToolFuncsMatchCatalog(t *testing.T) {
	t.Parallel()
	var funcs, tools []string
	for name := range (&handlers{}).toolFuncs() {
		funcs = append(funcs, name)
	}
	for _, op := range append(catalog.Tools(), catalog.ChangeTools()...) {
		tools = append(tools, op.Tool.Name)
	}
	slices.Sort(funcs)
	slices.Sort(tools)
	if diff := cmp.Diff(tools, funcs); diff != "" {
		t.Errorf("tools (-catalogue +functions):\n%s", diff)
	}
}
