package mcpserver_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/changes"
	"github.com/companyregistry/registry/changes/apitoken"
	"github.com/companyregistry/registry/internal/memstore"
	"github.com/companyregistry/registry/mcpserver"
	"github.com/companyregistry/registry/restserver"
)

type noFetcher struct{}

func (noFetcher) Fetch(context.Context, string, string) (changes.Snapshot, error) {
	return changes.Snapshot{}, &registry.Error{Code: registry.CodeUpstreamError}
}

// changeService returns a change service over a memory store that holds two
// changes of Equinor.
func changeService(t *testing.T, reg *registry.Registry) *changes.Service {
	t.Helper()
	store := memstore.New(func() time.Time { return fixedNow })
	name := "EQUINOR ASA"
	if _, err := store.Apply(context.Background(), changes.Batch{Changes: []changes.Change{
		{Country: "NO", CompanyID: idEquinor, CompanyName: &name, Kind: changes.KindNameChanged,
			Old: json.RawMessage(`"STATOIL ASA"`), New: json.RawMessage(`"EQUINOR ASA"`), DetectedAt: fixedNow},
		{Country: "NO", CompanyID: idEquinor, CompanyName: &name, Kind: changes.KindStatusChanged,
			Old: json.RawMessage(`"active"`), New: json.RawMessage(`"bankrupt"`), DetectedAt: fixedNow.Add(time.Hour)},
	}}); err != nil {
		t.Fatal(err)
	}
	svc, err := changes.NewService(changes.ServiceConfig{Store: store, Fetcher: noFetcher{}, Registry: reg,
		Now: func() time.Time { return fixedNow }})
	if err != nil {
		t.Fatal(err)
	}
	return svc
}

// TestCompanyChangesTool: the tool exists only with WithChanges; it is
// read-only, closed-world, with an output schema; its answer and its
// errors are byte for byte those of REST's
// GET /v1/{country}/company/{id}/changes.
func TestCompanyChangesTool(t *testing.T) {
	t.Parallel()
	reg, _ := newRegistry(t)
	svc := changeService(t, reg)
	if _, err := mcpserver.New(reg, mcpserver.WithChanges(nil)); err == nil {
		t.Error("WithChanges(nil) accepted")
	}
	plain, err := connect(t, reg).ListTools(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range plain.Tools {
		if tool.Name == mcpserver.ToolCompanyChanges {
			t.Fatal("company_changes without WithChanges")
		}
	}
	if strings.Contains(connect(t, reg).InitializeResult().Instructions, mcpserver.ToolCompanyChanges) {
		t.Error("the instructions mention company_changes without WithChanges")
	}
	cs := connect(t, reg, mcpserver.WithChanges(svc))
	if in := cs.InitializeResult().Instructions; !strings.HasSuffix(in, mcpserver.ChangesInstructions) ||
		!strings.HasPrefix(in, mcpserver.Instructions) {
		t.Errorf("instructions with WithChanges: %q", in)
	}
	list, err := cs.ListTools(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var tool *mcp.Tool
	for _, tl := range list.Tools {
		if tl.Name == mcpserver.ToolCompanyChanges {
			tool = tl
		}
	}
	if tool == nil {
		t.Fatal("no company_changes with WithChanges")
	}
	a := tool.Annotations
	if !a.ReadOnlyHint || !a.IdempotentHint || *a.DestructiveHint || *a.OpenWorldHint || tool.OutputSchema == nil {
		t.Errorf("annotations %+v, output schema %v", a, tool.OutputSchema != nil)
	}

	rest, err := restserver.New(reg, restserver.WithRateLimit(0), restserver.WithChanges(svc, (*apitoken.Set)(nil)))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args map[string]any
		path string
	}{
		{map[string]any{"id": "923 609 016"}, "/v1/NO/company/923%20609%20016/changes"},
		{map[string]any{"id": idEquinor, "country": "no", "limit": 1}, "/v1/no/company/923609016/changes?limit=1"},
		{map[string]any{"id": idNotFound}, "/v1/NO/company/974760673/changes"},
		{map[string]any{"id": idBadChecksum}, "/v1/NO/company/923609017/changes"},
		{map[string]any{"id": idEquinor, "limit": 0}, "/v1/NO/company/923609016/changes?limit=0"},
		{map[string]any{"id": idEquinor, "limit": "many"}, "/v1/NO/company/923609016/changes?limit=many"},
		{map[string]any{"id": idEquinor, "country": "XX"}, "/v1/XX/company/923609016/changes"},
	} {
		res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: mcpserver.ToolCompanyChanges, Arguments: c.args})
		if err != nil {
			t.Fatal(err)
		}
		rec := httptest.NewRecorder()
		rest.ServeHTTP(rec, httptest.NewRequestWithContext(t.Context(), http.MethodGet, c.path, nil))
		body, _ := io.ReadAll(rec.Body)
		if got := text(t, res); got != string(body) {
			t.Errorf("%v: MCP and REST differ:\n mcp %s\nrest %s", c.args, got, body)
		}
		if res.IsError != (rec.Code != http.StatusOK) {
			t.Errorf("%v: isError %v, REST %d", c.args, res.IsError, rec.Code)
		}
		if !res.IsError {
			sc, _ := json.Marshal(res.StructuredContent)
			if diff := cmp.Diff(parse(t, body), parse(t, sc)); diff != "" {
				t.Errorf("structuredContent (-rest +mcp):\n%s", diff)
			}
		}
	}
	res, _ := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: mcpserver.ToolCompanyChanges, Arguments: map[string]any{"id": idEquinor}})
	var doc changes.CompanyChanges
	if err := json.Unmarshal([]byte(text(t, res)), &doc); err != nil || len(doc.Changes) != 2 || doc.Changes[0].Kind != changes.KindStatusChanged {
		t.Errorf("newest first: %+v, %v", doc, err)
	}
}
