package mcpserver

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/companyregistry/registry/internal/catalog"
)

// toolNameSink keeps TestToolName's results on the heap, as the fast
// paths' names are.
var toolNameSink string

// TestToolName: toolName returns the name it was given, and for the name of
// every tool this package serves (the catalog's, the change tools' too)
// without an allocation; any other name costs its string.
func TestToolName(t *testing.T) {
	var names []string
	for _, op := range append(catalog.Tools(), catalog.ChangeTools()...) {
		names = append(names, op.Tool.Name)
	}
	var wrong, allocating []string
	for _, name := range append(names, "not_a_tool", "") {
		b := []byte(name)
		if got := toolName(b); got != name {
			wrong = append(wrong, got)
		}
		if testing.AllocsPerRun(10, func() { toolNameSink = toolName(b) }) != 0 {
			allocating = append(allocating, name)
		}
	}
	if diff := cmp.Diff([]string(nil), wrong); diff != "" {
		t.Errorf("names not returned unchanged (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"not_a_tool"}, allocating); diff != "" {
		t.Errorf("names that allocate (-want +got):\n%s", diff)
	}
}
