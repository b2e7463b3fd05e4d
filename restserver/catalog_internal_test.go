package restserver

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/companyregistry/registry/internal/catalog"
	"github.com/companyregistry/registry/internal/ops"
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

// TestOneServerTitle: /openapi.json and /server.json give the server the
// same title.
func TestOneServerTitle(t *testing.T) {
	t.Parallel()
	d := docInputs{catalog.TextInputs{Version: "1.0.0"}}
	oa, err := d.openAPI(false)
	if err != nil {
		t.Fatal(err)
	}
	sj, err := d.serverJSON()
	if err != nil {
		t.Fatal(err)
	}
	var a struct {
		Info struct{ Title, Description string }
	}
	var s struct{ Title, Version string }
	if err := json.Unmarshal(oa, &a); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(sj), &s); err != nil {
		t.Fatal(err)
	}
	if a.Info.Title != ops.ServerTitle || s.Title != ops.ServerTitle || s.Version != "1.0.0" ||
		!strings.HasSuffix(a.Info.Description, "Software version 1.0.0.") {
		t.Errorf("openapi title %q (%q), server.json title %q version %q; want %q and 1.0.0",
			a.Info.Title, a.Info.Description, s.Title, s.Version, ops.ServerTitle)
	}
}
