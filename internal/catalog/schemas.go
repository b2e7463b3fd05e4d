package catalog

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/companyregistry/registry/schema"
)

// This file is the one place beside the schema package that builds JSON
// Schemas: the parameters' schemas for OpenAPI, the tools' input schemas,
// the batch route's documents, and the field lists of /llms-full.txt. The
// adapters get plain values and bytes.

// jsonSchema returns the OpenAPI schema of a parameter.
func (s ParamSchema) jsonSchema() *jsonschema.Schema {
	out := &jsonschema.Schema{Type: s.Type, Format: s.Format, MinLength: s.MinLength, MaxLength: s.MaxLength,
		Minimum: s.Minimum, Maximum: s.Maximum, Examples: slices.Clone(s.Examples)}
	if s.Default != "" {
		out.Default = json.RawMessage(s.Default)
	}
	return out
}

// OpenAPISchema returns the JSON of the parameter's schema in /openapi.json.
func (p Param) OpenAPISchema() (json.RawMessage, error) {
	b, err := json.Marshal(p.Schema.jsonSchema())
	if err != nil {
		return nil, fmt.Errorf("catalog: schema of %s: %w", p.Name, err)
	}
	return b, nil
}

// InputSchema returns the MCP input schema of the operation's tool (a
// *jsonschema.Schema): an object of the tool's arguments with their types,
// descriptions and defaults, the required ones, and no other property. It
// carries no enum, pattern or range, so that the Registry answers
// out-of-range values with its own envelope.
func (o Operation) InputSchema() any {
	s := &jsonschema.Schema{
		Type:                 "object",
		Properties:           map[string]*jsonschema.Schema{},
		Required:             []string{},
		AdditionalProperties: &jsonschema.Schema{Not: &jsonschema.Schema{}},
	}
	for _, p := range o.Args() {
		a := &jsonschema.Schema{Type: p.Schema.Type, Description: p.Arg.Doc}
		if p.Arg.Default != "" {
			a.Default = json.RawMessage(p.Arg.Default)
		}
		s.Properties[p.Arg.Name] = a
		s.PropertyOrder = append(s.PropertyOrder, p.Arg.Name)
		if p.Arg.Required {
			s.Required = append(s.Required, p.Arg.Name)
		}
	}
	return s
}

// OutputSchema returns the MCP output schema of the operation's tool (a
// *jsonschema.Schema, see [schema.Output]), or nil when there is none.
func (o Operation) OutputSchema() any {
	if s := schema.Output(o.Result); s != nil {
		return s
	}
	if s := changeOutputSchema(o.Result); s != nil {
		return s
	}
	return nil
}

// components returns the schema package's components, the batch route's
// documents, change monitoring's, and ErrorBody, the error member of the
// envelope under a name of its own (a batch item holds one; client
// generators name a type after a component, not after a member of one).
func components() map[string]*jsonschema.Schema {
	comps := schema.Components()
	for name, s := range batchSchemas() {
		comps[name] = s
	}
	for name, s := range changeSchemas() {
		comps[name] = s
	}
	if env := comps[schema.Error]; env != nil && env.Properties["error"] != nil {
		body := *env.Properties["error"]
		body.Title = ErrorBody
		if body.Description == "" {
			body.Description = "The error member of the Error envelope: code, message, hint, country, registry and details."
		}
		comps[ErrorBody] = &body
	}
	return comps
}

// ErrorBody names the error member of the envelope among the components.
const ErrorBody = "ErrorBody"

// Components returns the components.schemas of /openapi.json by name, as
// JSON: every document of the schema package, the batch route's and change
// monitoring's ([ChangeDocuments], which a document without change
// monitoring leaves out).
func Components() (map[string]json.RawMessage, error) {
	comps := components()
	out := make(map[string]json.RawMessage, len(comps))
	for name, s := range comps {
		b, err := json.Marshal(s)
		if err != nil {
			return nil, fmt.Errorf("catalog: schema %s: %w", name, err)
		}
		out[name] = b
	}
	return out, nil
}

// Document is one document of the reference with its fields.
type Document struct {
	Name, Description string
	Fields            []Field
}

// Field is one property of a document, nested ones after their parent
// with a deeper Indent.
type Field struct {
	Indent, Name, Type string
}

// Documents returns the documents of /llms-full.txt in its order; with
// changes, change monitoring's documents follow.
func Documents(withChanges ...bool) ([]Document, error) {
	comps := components()
	names := []string{schema.CompanyReport, schema.Address, schema.IndustryCode, schema.PublishedDeadline,
		schema.SearchResult, schema.SearchHit, schema.DeadlineReport, schema.Deadline, schema.RolesReport, schema.Role,
		schema.RoleHolder, schema.ValidationResult, schema.CountriesResponse, schema.CountryInfo, schema.HealthResponse, schema.Error,
		BatchRequest, BatchResponse, BatchItem}
	if len(withChanges) > 0 && withChanges[0] {
		names = append(names, ChangeDocuments()...)
	}
	out := make([]Document, 0, len(names))
	for _, name := range names {
		s := comps[name]
		if s == nil {
			return nil, fmt.Errorf("catalog: no schema %s", name)
		}
		out = append(out, Document{Name: name, Description: s.Description, Fields: fields(nil, s, "")})
	}
	return out, nil
}

// fields appends the properties of an object schema, nested objects'
// properties after their parent.
func fields(out []Field, s *jsonschema.Schema, indent string) []Field {
	order := s.PropertyOrder
	if len(order) == 0 {
		for k := range s.Properties {
			order = append(order, k)
		}
		slices.Sort(order)
	}
	for _, name := range order {
		p := s.Properties[name]
		out = append(out, Field{Indent: indent, Name: name, Type: describe(p)})
		if p.Type == "object" && len(p.Properties) > 0 {
			out = fields(out, p, indent+"  ")
		}
	}
	return out
}

// describe renders a property schema as a short type phrase.
func describe(s *jsonschema.Schema) string {
	if s.Ref != "" {
		ref := strings.TrimPrefix(s.Ref, schema.ComponentsRef)
		if doc, member, ok := strings.Cut(ref, "/properties/"); ok {
			return "the " + member + " member of " + doc
		}
		if ref == ErrorBody {
			return "the error member of " + schema.Error
		}
		return ref
	}
	if len(s.AnyOf) == 2 && s.AnyOf[1].Type == "null" {
		return describe(s.AnyOf[0]) + " or null"
	}
	typ := s.Type
	nullable := false
	if len(s.Types) > 0 {
		typ = s.Types[0]
		nullable = slices.Contains(s.Types, "null")
	}
	switch {
	case typ == "" && len(s.AnyOf) == 0:
		typ = "any JSON value"
	case typ == "array" && s.Items != nil:
		typ = "array of " + describe(s.Items)
	case typ == "object" && s.AdditionalProperties != nil && s.AdditionalProperties.Type != "":
		typ = "object of " + s.AdditionalProperties.Type
	case s.Format == "date":
		typ = "date (YYYY-MM-DD)"
	case s.Format == "date-time":
		typ = "date-time (RFC 3339, UTC)"
	}
	if len(s.Enum) > 0 {
		vals := make([]string, 0, len(s.Enum))
		for _, v := range s.Enum {
			vals = append(vals, fmt.Sprint(v))
		}
		typ += ", one of " + strings.Join(vals, ", ")
	}
	if s.Minimum != nil && s.Maximum != nil {
		typ += fmt.Sprintf(" (%g to %g)", *s.Minimum, *s.Maximum)
	} else if s.Minimum != nil {
		typ += fmt.Sprintf(" (>= %g)", *s.Minimum)
	}
	if nullable {
		typ += " or null"
	}
	return typ
}

// batchSchemas returns the documents of the batch route, referring to the
// schema package's components.
func batchSchemas() map[string]*jsonschema.Schema {
	ref := func(name string) *jsonschema.Schema { return &jsonschema.Schema{Ref: schema.ComponentsRef + name} }
	nullable := func(s *jsonschema.Schema) *jsonschema.Schema {
		return &jsonschema.Schema{AnyOf: []*jsonschema.Schema{s, {Type: "null"}}}
	}
	closed := &jsonschema.Schema{Not: &jsonschema.Schema{}}
	return map[string]*jsonschema.Schema{
		BatchRequest: {
			Title:       BatchRequest,
			Description: fmt.Sprintf("The body of a deadlines batch: 1 to %d identifiers and an optional today.", MaxBatchIDs),
			Type:        "object",
			Properties: map[string]*jsonschema.Schema{
				"ids": {Type: "array", MinItems: jsonschema.Ptr(1), MaxItems: jsonschema.Ptr(MaxBatchIDs),
					Description: "National identifiers, written as on the single routes; answered in this order, repeats included.",
					Items:       &jsonschema.Schema{Type: "string"}},
				"today": {Types: []string{"string", "null"}, Format: "date",
					Description: "The date to count from, YYYY-MM-DD; absent or null is the server's current UTC date."},
			},
			PropertyOrder:        []string{"ids", "today"},
			Required:             []string{"ids"},
			AdditionalProperties: closed,
		},
		BatchResponse: {
			Title:       BatchResponse,
			Description: "The answer of a deadlines batch: one item per identifier of the request, in its order.",
			Type:        "object",
			Properties: map[string]*jsonschema.Schema{
				"country": {Type: "string", Pattern: `^[A-Z]{2}$`},
				"today":   {Type: "string", Format: "date", Description: "The date every report counts from."},
				"count":   {Type: "integer", Minimum: jsonschema.Ptr(1.0), Description: "The number of items."},
				"failed":  {Type: "integer", Minimum: jsonschema.Ptr(0.0), Description: "The number of items with an error."},
				"items":   {Type: "array", Items: ref(BatchItem), MinItems: jsonschema.Ptr(1), MaxItems: jsonschema.Ptr(MaxBatchIDs)},
			},
			PropertyOrder:        []string{"country", "today", "count", "failed", "items"},
			Required:             []string{"country", "today", "count", "failed", "items"},
			AdditionalProperties: closed,
		},
		BatchItem: {
			Title: BatchItem,
			Description: "The answer for one identifier: its DeadlineReport, or its error with the HTTP status the single " +
				"deadlines route would send. A failed item is itself an error envelope: its error member holds the bytes " +
				"of that route's envelope, so it decodes as one.",
			Type: "object",
			Properties: map[string]*jsonschema.Schema{
				"id":     {Type: "string", Description: "The identifier as the request wrote it."},
				"status": {Type: "integer", Description: "200, or the HTTP status of the error on the single route."},
				"report": nullable(ref(schema.DeadlineReport)),
				"error":  nullable(ref(ErrorBody)),
			},
			PropertyOrder:        []string{"id", "status", "report", "error"},
			Required:             []string{"id", "status", "report", "error"},
			AdditionalProperties: closed,
		},
	}
}
