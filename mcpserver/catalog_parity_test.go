package mcpserver_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/companyregistry/registry/internal/catalog"
	"github.com/companyregistry/registry/restserver"
)

// TestCatalogParity derives from the catalogue what each surface must
// show of every operation with a tool, and checks the REST route's OpenAPI
// parameters, the MCP tool's input schema and annotations, and the answers
// of both surfaces to the same call built from the parameters' examples.
func TestCatalogParity(t *testing.T) {
	t.Parallel()
	reg, _ := newRegistry(t)
	list, err := connect(t, reg).ListTools(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	tools := map[string]*mcp.Tool{}
	for _, tool := range list.Tools {
		tools[tool.Name] = tool
	}
	rest, err := restserver.New(reg, restserver.WithRateLimit(0))
	if err != nil {
		t.Fatal(err)
	}
	rec := httptest.NewRecorder()
	rest.ServeHTTP(rec, httptest.NewRequestWithContext(t.Context(), http.MethodGet, "/openapi.json", nil))
	var doc struct {
		Paths map[string]map[string]struct {
			OperationID string      `json:"operationId"`
			Parameters  []wireParam `json:"parameters"`
		} `json:"paths"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}

	ops := catalog.Tools()
	if len(ops) != len(tools) {
		t.Errorf("the catalogue has %d tools, tools/list %d", len(ops), len(tools))
	}
	for _, op := range ops {
		t.Run(op.Tool.Name, func(t *testing.T) {
			t.Parallel()
			// OpenAPI: the REST parameters, in the REST order.
			o, ok := doc.Paths[op.Pattern][strings.ToLower(op.Method)]
			if !ok || o.OperationID != op.Name {
				t.Fatalf("/openapi.json has no %s %s for %s", op.Method, op.Pattern, op.Name)
			}
			var want []wireParam
			for _, p := range op.RESTParams() {
				want = append(want, wireParam{Name: p.Name, In: string(p.In), Required: p.Required, Description: p.Doc,
					Schema: wireSchema{Type: p.Schema.Type, Format: p.Schema.Format}})
			}
			if diff := cmp.Diff(want, o.Parameters); diff != "" {
				t.Errorf("OpenAPI parameters (-catalogue +openapi):\n%s", diff)
			}

			// MCP: the tool's arguments, their types, defaults and
			// descriptions, the required ones, and the annotations.
			tool := tools[op.Tool.Name]
			if tool == nil {
				t.Fatalf("tools/list lacks %s", op.Tool.Name)
			}
			b, _ := json.Marshal(tool.InputSchema)
			var in struct {
				Properties map[string]struct {
					Type, Description string
					Default           json.RawMessage
				}
				Required []string
			}
			if err := json.Unmarshal(b, &in); err != nil {
				t.Fatal(err)
			}
			required := []string{}
			for _, p := range op.Args() {
				got, ok := in.Properties[p.Arg.Name]
				if !ok {
					t.Errorf("the input schema lacks %s", p.Arg.Name)
					continue
				}
				if got.Type != p.Schema.Type || got.Description != p.Arg.Doc || string(got.Default) != p.Arg.Default {
					t.Errorf("%s: type %q, description %q, default %s; the catalogue says %q, %q, %s",
						p.Arg.Name, got.Type, got.Description, got.Default, p.Schema.Type, p.Arg.Doc, p.Arg.Default)
				}
				if p.Arg.Required {
					required = append(required, p.Arg.Name)
				}
			}
			if len(in.Properties) != len(op.Args()) {
				t.Errorf("the input schema has %d properties, the catalogue %d arguments", len(in.Properties), len(op.Args()))
			}
			if diff := cmp.Diff(required, in.Required, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("required arguments (-catalogue +mcp):\n%s", diff)
			}
			if tool.Title != op.Tool.Title || tool.Description != op.Tool.Description ||
				tool.Annotations == nil || tool.Annotations.OpenWorldHint == nil || *tool.Annotations.OpenWorldHint != op.Tool.OpenWorld {
				t.Errorf("title, description or open-world hint differ from the catalogue: %+v", tool)
			}

			// The same call on both surfaces, from the examples; then with
			// an unsupported country where the operation takes one.
			calls := []map[string]any{examples(op)}
			if _, ok := calls[0]["country"]; ok {
				bad := examples(op)
				bad["country"] = "XX"
				calls = append(calls, bad)
			}
			for _, values := range calls {
				path, args := restCall(op, values), toolArgs(op, values)
				mcpReg, _ := newRegistry(t)
				restReg, _ := newRegistry(t)
				res, err := connect(t, mcpReg).CallTool(t.Context(), &mcp.CallToolParams{Name: op.Tool.Name, Arguments: args})
				if err != nil {
					t.Fatal(err)
				}
				srv, err := restserver.New(restReg, restserver.WithRateLimit(0))
				if err != nil {
					t.Fatal(err)
				}
				rec := httptest.NewRecorder()
				srv.ServeHTTP(rec, httptest.NewRequestWithContext(t.Context(), op.Method, path, nil))
				body, _ := io.ReadAll(rec.Body)
				if got := text(t, res); got != string(body) || res.IsError != (rec.Code != http.StatusOK) {
					t.Errorf("%s %v: MCP (isError %v) %s\nREST %s (%d) %s", op.Tool.Name, args, res.IsError, got, path, rec.Code, body)
				}
			}
		})
	}
}

type wireParam struct {
	Name        string     `json:"name"`
	In          string     `json:"in"`
	Required    bool       `json:"required"`
	Description string     `json:"description"`
	Schema      wireSchema `json:"schema"`
}

type wireSchema struct {
	Type   string `json:"type"`
	Format string `json:"format"`
}

// examples returns each parameter's first example, by REST name.
func examples(op catalog.Operation) map[string]any {
	out := map[string]any{}
	for _, p := range op.Params {
		if len(p.Schema.Examples) > 0 {
			out[p.Name] = p.Schema.Examples[0]
		}
	}
	return out
}

// restCall fills op's pattern and query with values.
func restCall(op catalog.Operation, values map[string]any) string {
	path := op.Pattern
	q := url.Values{}
	for _, p := range op.RESTParams() {
		v, ok := values[p.Name]
		if !ok {
			continue
		}
		s := fmt.Sprint(v)
		if p.In == catalog.InPath {
			path = strings.Replace(path, "{"+p.Name+"}", url.PathEscape(s), 1)
		} else {
			q.Set(p.Name, s)
		}
	}
	if len(q) > 0 {
		path += "?" + q.Encode()
	}
	return path
}

// toolArgs renames values to op's tool arguments.
func toolArgs(op catalog.Operation, values map[string]any) map[string]any {
	out := map[string]any{}
	for _, p := range op.Args() {
		if v, ok := values[p.Name]; ok {
			out[p.Arg.Name] = v
		}
	}
	return out
}
