package restserver_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	sjs "github.com/santhosh-tekuri/jsonschema/v6"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/changes"
	"github.com/companyregistry/registry/internal/catalog"
	"github.com/companyregistry/registry/internal/memstore"
	"github.com/companyregistry/registry/internal/moduletest"
	"github.com/companyregistry/registry/restserver"
)

// oaDoc is the part of /openapi.json the first-class test reads.
type oaDoc struct {
	Tags []struct {
		Name, Description string
	}
	Paths map[string]map[string]struct {
		OperationID string `json:"operationId"`
		Tags        []string
		Summary     string
		Description string
		Parameters  []struct {
			Name, In, Description string
			Example               any
		}
		RequestBody *struct {
			Content map[string]struct{ Example json.RawMessage }
		} `json:"requestBody"`
		Responses map[string]struct {
			Description string
			Content     map[string]struct {
				Schema   map[string]any
				Example  json.RawMessage
				Examples map[string]struct {
					Summary string
					Value   json.RawMessage
				}
			}
		}
	}
}

// TestOpenAPIFirstClass (issue 29): every operation of /openapi.json has an
// operationId, a summary, a description and one tag of a declared resource;
// every parameter a description and an example; the 200 answer an example
// (a recorded answer, see TestOpenAPIExamplesAreRealAnswers) that is valid
// against its schema; every error status the envelope schema and one
// recorded envelope per code, each valid against the Error schema. A new
// operation of the catalogue without these fails here.
func TestOpenAPIFirstClass(t *testing.T) {
	t.Parallel()
	t.Run("public", func(t *testing.T) {
		t.Parallel()
		firstClass(t, newHarness(t, restserver.WithPublicURL("https://registry.example.com")), catalog.Operations(),
			[]string{"countries", "companies", "deadlines", "roles", "validation", "service"})
	})
	// With change monitoring: its operations, its tags and its error
	// codes too.
	t.Run("changes", func(t *testing.T) {
		t.Parallel()
		h := newChangeHarness(t, bothTokens(), restserver.WithPublicURL("https://registry.example.com"))
		firstClass(t, h.harness, append(catalog.Operations(), catalog.ChangeOperations()...),
			[]string{"countries", "companies", "deadlines", "roles", "validation", "service", "watches", "changes"})
		// The webhook a watch's endpoint receives, with the recorded body
		// as its example, valid against WebhookEvent.
		var doc struct {
			Webhooks map[string]map[string]struct {
				RequestBody struct {
					Content map[string]struct{ Example json.RawMessage }
				} `json:"requestBody"`
			}
		}
		if err := json.Unmarshal(h.get(t, "/openapi.json").body, &doc); err != nil {
			t.Fatal(err)
		}
		example := doc.Webhooks["companyChange"]["post"].RequestBody.Content["application/json"].Example
		api := h.openAPI(t)
		api.mu.Lock()
		sch, err := api.compiler.Compile(openAPIURL + "#/components/schemas/WebhookEvent")
		api.mu.Unlock()
		if err != nil {
			t.Fatal(err)
		}
		v, err := sjs.UnmarshalJSON(strings.NewReader(string(example)))
		if err != nil {
			t.Fatalf("the webhook's example %q: %v", example, err)
		}
		if err := sch.Validate(v); err != nil {
			t.Errorf("the webhook's example does not match WebhookEvent: %v", err)
		}
	})
}

func firstClass(t *testing.T, h *harness, ops []catalog.Operation, want []string) {
	var doc oaDoc
	if err := json.Unmarshal(h.get(t, "/openapi.json").body, &doc); err != nil {
		t.Fatal(err)
	}
	var tags []string
	for _, tg := range doc.Tags {
		if tg.Description == "" {
			t.Errorf("tag %s has no description", tg.Name)
		}
		tags = append(tags, tg.Name)
	}
	if !slices.Equal(tags, want) {
		t.Errorf("tags %v, want %v", tags, want)
	}
	api := h.openAPI(t)
	validate := func(where, ptr string, example json.RawMessage) {
		t.Helper()
		v, err := sjs.UnmarshalJSON(strings.NewReader(string(example)))
		if err != nil {
			t.Errorf("%s: example is not JSON: %v", where, err)
			return
		}
		api.mu.Lock()
		sch, err := api.compiler.Compile(openAPIURL + "#" + (&url.URL{Path: ptr}).EscapedPath())
		api.mu.Unlock()
		if err != nil {
			t.Errorf("%s: %v", where, err)
			return
		}
		if err := sch.Validate(v); err != nil {
			t.Errorf("%s: the example does not match its schema: %v", where, err)
		}
	}
	seen := 0
	for path, methods := range doc.Paths {
		for method, op := range methods {
			seen++
			where := method + " " + path
			if op.OperationID == "" || op.Summary == "" || op.Description == "" {
				t.Errorf("%s: operationId %q summary %q description %q", where, op.OperationID, op.Summary, op.Description)
			}
			if len(op.Tags) != 1 || !slices.Contains(tags, op.Tags[0]) {
				t.Errorf("%s: tags %v, want one of %v", where, op.Tags, tags)
			}
			for _, p := range op.Parameters {
				if p.Description == "" || p.Example == nil {
					t.Errorf("%s: parameter %s: description %q example %v", where, p.Name, p.Description, p.Example)
				}
			}
			if rb := op.RequestBody; rb != nil && len(rb.Content["application/json"].Example) == 0 {
				t.Errorf("%s: request body without an example", where)
			}
			esc := "/paths/" + strings.NewReplacer("~", "~0", "/", "~1").Replace(path) + "/" + method + "/responses/"
			for status, res := range op.Responses {
				if status == "204" {
					if len(res.Content) != 0 {
						t.Errorf("%s 204 has a body", where)
					}
					continue
				}
				if len(res.Content) != 1 {
					t.Errorf("%s %s: %d media types, want 1", where, status, len(res.Content))
				}
				for mt, c := range res.Content {
					if status == "200" || status == "201" || status == "202" {
						if len(c.Example) == 0 || string(c.Example) == `""` {
							t.Errorf("%s 200 %s: no example", where, mt)
						} else if mt == "application/json" {
							validate(where+" "+status, esc+status+"/content/application~1json/schema", c.Example)
						}
						continue
					}
					if mt != "application/json" || c.Schema["$ref"] != "#/components/schemas/Error" || len(c.Examples) == 0 {
						t.Errorf("%s %s: %s schema %v with %d examples, want the Error envelope with examples", where, status, mt, c.Schema, len(c.Examples))
					}
					for code, ex := range c.Examples {
						var e struct{ Error struct{ Code string } }
						if err := json.Unmarshal(ex.Value, &e); err != nil || e.Error.Code != code || ex.Summary == "" ||
							!strings.Contains(res.Description, code) {
							t.Errorf("%s %s: example %s has code %q (%v), summary %q", where, status, code, e.Error.Code, err, ex.Summary)
						}
						validate(where+" "+status+" "+code, "/components/schemas/Error", ex.Value)
					}
				}
			}
		}
	}
	if n := len(ops); seen != n {
		t.Errorf("%d operations in /openapi.json, %d in the catalogue", seen, n)
	}
}

// Every operation of the catalogue names its resource and, but for the
// document itself, an example request whose recorded answer is embedded;
// every error code an operation declares has a recorded envelope.
func TestCatalogueExamples(t *testing.T) {
	t.Parallel()
	for _, op := range append(catalog.Operations(), catalog.ChangeOperations()...) {
		if op.Tag == "" || op.Summary == "" || op.Doc == "" {
			t.Errorf("%s: tag %q summary %q doc %q", op.Name, op.Tag, op.Summary, op.Doc)
		}
		if op.Name == "openAPI" || op.SuccessStatus() == http.StatusNoContent {
			continue
		}
		if b, err := op.Example(); err != nil || len(b) == 0 {
			t.Errorf("%s: example: %v", op.Name, err)
		}
		for _, p := range op.RESTParams() {
			if p.Doc == "" || len(p.Schema.Examples) == 0 {
				t.Errorf("%s: parameter %s lacks a description or an example", op.Name, p.Name)
			}
		}
	}
	for _, c := range catalog.ErrorCodes() {
		if b, err := catalog.ErrorExample(c); err != nil || len(b) == 0 {
			t.Errorf("%s: example: %v", c, err)
		}
	}
}

// generatorInput is the copy of /openapi.json that the Go client of
// internal/tools/openapiclient is generated from.
const generatorInput = "../internal/tools/openapiclient/openapi.json"

// TestGeneratorInputIsTheServedDocument: the generated client's input is
// the document the service serves with change monitoring (it depends on
// the catalogue, the software version and whether change monitoring is
// on; with it, the document is the whole interface, so the client has the
// watch and feed routes too). When the catalogue changes, run this test
// with -update, then go generate in internal/tools/openapiclient
// (.ci/openapi.sh checks the generated client against it).
func TestGeneratorInputIsTheServedDocument(t *testing.T) {
	t.Parallel()
	reg, err := registry.New([]registry.Country{&fakeCountry{code: "ZZ"}})
	if err != nil {
		t.Fatal(err)
	}
	svc, err := changes.NewService(changes.ServiceConfig{Store: memstore.New(time.Now), Fetcher: snapFetcher{time.Now}, Registry: reg})
	if err != nil {
		t.Fatal(err)
	}
	h, err := restserver.New(reg, restserver.WithChanges(svc, nil))
	if err != nil {
		t.Fatal(err)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/openapi.json", nil))
	moduletest.Golden(t, generatorInput, rec.Body.Bytes(), *update)
}
