package schema_test

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"testing"

	gjs "github.com/google/jsonschema-go/jsonschema"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/schema"
)

// TestOutputDocumentsValidate checks that every real document validates
// against its Output schema, with the santhosh-tekuri validator (formats
// asserted) and with jsonschema-go, the MCP SDK's.
func TestOutputDocumentsValidate(t *testing.T) {
	t.Parallel()
	for name, docs := range documents() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			sch := compile(t, schema.Output(name))
			for i, d := range docs {
				if err := sch.Validate(instance(t, d)); err != nil {
					t.Errorf("document %d does not validate: %v", i, err)
				}
				if err := sdkValidate(t, schema.Output(name), d); err != nil {
					t.Errorf("document %d does not validate with jsonschema-go: %v", i, err)
				}
			}
		})
	}
	if schema.Output("Nope") != nil {
		t.Error(`Output("Nope") is not nil`)
	}
}

// TestOutputPortable checks the form of every Output schema: no type
// arrays, none of the keywords it leaves out, each nested resource defined
// once in $defs and every $ref resolving there, and a $id naming the schema
// and the hash of its content.
func TestOutputPortable(t *testing.T) {
	t.Parallel()
	ids := map[string]string{}
	for _, name := range schema.Names() {
		s := schema.Output(name)
		var refs []string
		var walk func(path string, s *gjs.Schema)
		walk = func(path string, s *gjs.Schema) {
			if s == nil {
				return
			}
			if len(s.Types) > 0 {
				t.Errorf("%s: type array %v", path, s.Types)
			}
			if s.Pattern != "" || s.MinLength != nil || s.Minimum != nil || s.Maximum != nil || s.PropertyNames != nil ||
				(s.AdditionalProperties != nil && s.AdditionalProperties.Not != nil) {
				t.Errorf("%s: a constraint Output leaves out", path)
			}
			if s.Ref != "" {
				refs = append(refs, s.Ref)
			}
			walk(path+"[]", s.Items)
			walk(path+"{}", s.AdditionalProperties)
			for i, a := range s.AnyOf {
				walk(path+"|"+string(rune('0'+i)), a)
			}
			for p, ps := range s.Properties {
				walk(path+"."+p, ps)
			}
		}
		walk(name, s)
		for d, ds := range s.Defs {
			walk(name+".$defs."+d, ds)
		}
		for _, r := range refs {
			d, ok := strings.CutPrefix(r, schema.DefsRef)
			if !ok || s.Defs[d] == nil {
				t.Errorf("%s: $ref %s does not resolve in $defs", name, r)
			}
		}
		for d := range s.Defs {
			if !slices.Contains(refs, schema.DefsRef+d) {
				t.Errorf("%s: $defs.%s is not referenced", name, d)
			}
		}
		id := s.ID
		s.ID = ""
		b, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(b)
		if want := schema.IDPrefix + name + ":" + hex.EncodeToString(sum[:8]); id != want {
			t.Errorf("%s: $id %q, want %q", name, id, want)
		}
		ids[id] = name
	}
	if len(ids) != len(schema.Names()) {
		t.Errorf("%d distinct $id for %d schemas", len(ids), len(schema.Names()))
	}
	// The report's two addresses share one definition.
	cr := schema.Output(schema.CompanyReport)
	if got := slices.Sorted(maps.Keys(cr.Defs)); !slices.Equal(got, []string{schema.Address, schema.IndustryCode, schema.PublishedDeadline}) {
		t.Errorf("CompanyReport $defs = %v", got)
	}
}

// TestOutputRejects shows that Output still says what the document is:
// wrong types, null where null is not allowed, a missing field, a value
// outside an enum and a malformed date are refused.
func TestOutputRejects(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		schema string
		doc    any
		mutate func(m map[string]any)
		// format marks a rule only a validator asserting formats checks
		// (jsonschema-go does not).
		format bool
	}{
		{"missing nullable field", schema.CompanyReport, fullReport(), func(m map[string]any) { delete(m, "website") }, false},
		{"nullable field of the wrong type", schema.CompanyReport, fullReport(), func(m map[string]any) { m["website"] = 1 }, false},
		{"name null", schema.CompanyReport, fullReport(), func(m map[string]any) { m["name"] = nil }, false},
		{"list null", schema.CompanyReport, fullReport(), func(m map[string]any) { m["notes"] = nil }, false},
		{"status outside enum", schema.CompanyReport, fullReport(), func(m map[string]any) { m["status"] = "alive" }, false},
		{"date not a date", schema.CompanyReport, fullReport(), func(m map[string]any) { m["founded_at"] = "2025-02-30" }, true},
		{"address of the wrong shape", schema.CompanyReport, fullReport(), func(m map[string]any) { m["postal_address"] = map[string]any{"lines": "x"} }, false},
		{"registers value not boolean", schema.CompanyReport, fullReport(), func(m map[string]any) { m["registers"] = map[string]any{"x": "yes"} }, false},
		{"hits null", schema.SearchResult, registry.SearchResult{Country: "NO", Registry: "brreg", Query: "q"}, func(m map[string]any) { m["hits"] = nil }, false},
		{"recurrence outside enum", schema.Deadline, documents()[schema.Deadline][0], func(m map[string]any) { m["recurrence"] = "weekly" }, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			b, err := json.Marshal(tt.doc)
			if err != nil {
				t.Fatal(err)
			}
			var m map[string]any
			if err := json.Unmarshal(b, &m); err != nil {
				t.Fatal(err)
			}
			sch := compile(t, schema.Output(tt.schema))
			if err := sch.Validate(instance(t, m)); err != nil {
				t.Fatalf("unmutated document is invalid: %v", err)
			}
			tt.mutate(m)
			if err := sch.Validate(instance(t, m)); err == nil {
				t.Errorf("mutated document validates; want a failure")
			}
			if err := sdkValidate(t, schema.Output(tt.schema), m); err == nil && !tt.format {
				t.Errorf("mutated document validates with jsonschema-go; want a failure")
			}
		})
	}
}
