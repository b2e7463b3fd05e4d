// Package schema holds the JSON Schemas (draft 2020-12) of every document
// the interface returns: the resources of the root package and the error
// envelope.
//
// The schemas are inferred once from the Go types of the root package with
// github.com/google/jsonschema-go and then tightened by hand where the
// interface says more than the Go types can: every field is required
// (every field is always present on the wire), unknown properties are not
// allowed, nullable fields have the type ["T","null"], lists are never null,
// dates are "format": "date", timestamps "format": "date-time", statuses and
// recurrences are enums, and the numeric limits of the interface
// (confidence 0..1, employees >= 0, rank >= 1, total >= 0) are minimum and
// maximum keywords.
//
// [For] returns that strict schema for one document, self-contained (nested
// resources inlined), the contract the project's tests check documents
// against; [Components] returns the strict schemas with nested resources as
// $ref into "#/components/schemas/", fit for an OpenAPI 3.1 document;
// [Output] returns the form for an MCP tool's outputSchema: nested resources
// once in "$defs", nullability as anyOf with {"type": "null"} (no type
// arrays), and only the keywords a client can use. Every call returns a
// fresh copy that the caller may change.
package schema

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/google/jsonschema-go/jsonschema"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/cache"
)

// Draft is the JSON Schema dialect of every schema of this package.
const Draft = "https://json-schema.org/draft/2020-12/schema"

// ComponentsRef is the prefix of the $ref values in the schemas that
// [Components] returns.
const ComponentsRef = "#/components/schemas/"

// The names of the schemas, as [For] and [Components] know them.
const (
	CompanyReport     = "CompanyReport"
	Address           = "Address"
	IndustryCode      = "IndustryCode"
	PublishedDeadline = "PublishedDeadline"
	SearchResult      = "SearchResult"
	SearchHit         = "SearchHit"
	DeadlineReport    = "DeadlineReport"
	Deadline          = "Deadline"
	ValidationResult  = "ValidationResult"
	CountriesResponse = "CountriesResponse"
	CountryInfo       = "CountryInfo"
	HealthResponse    = "HealthResponse"
	RolesReport       = "RolesReport"
	Role              = "Role"
	RoleHolder        = "RoleHolder"
	// Error is the error envelope {"error": {code, message, hint, country,
	// registry, details}}.
	Error = "Error"
)

// Names returns the names of all schemas, sorted.
func Names() []string {
	names := make([]string, 0, len(built().base))
	for n := range built().base {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// For returns the strict, self-contained schema of the document called name
// (one of the constants of this package, e.g. [CompanyReport]), with every
// nested resource inlined and "$schema" set to [Draft]. It returns nil for
// an unknown name. The result is a fresh copy. An MCP tool's outputSchema
// is [Output].
func For(name string) *jsonschema.Schema {
	b := built()
	if _, ok := b.base[name]; !ok {
		return nil
	}
	s := b.expand(name, "")
	s.Schema = Draft
	return s
}

// DefsRef is the prefix of the $ref values in the schemas that [Output]
// returns: nested resources live in the schema's own "$defs".
const DefsRef = "#/$defs/"

// IDPrefix starts the "$id" of every schema that [Output] returns; the
// rest is the schema's name and a hash of its content.
const IDPrefix = "urn:companyregistry:schema:"

// Output returns the schema of the document called name in the form fit
// for an MCP tool's outputSchema, or nil for an unknown name. It says what
// [For] says about the document's shape with less, and in a form strict
// clients accept:
//
//   - Each nested resource is written once, in "$defs", and referenced as
//     {"$ref": "#/$defs/<Name>"} (see [DefsRef]) wherever it appears.
//   - A nullable value is {"anyOf": [<the value's schema>, {"type":
//     "null"}]}, never a type array, which clients that map tool schemas
//     onto a single-type dialect reject.
//   - It keeps what a client can use: types, required properties, items,
//     enums, date and date-time formats and descriptions. It leaves out the
//     guarantees the server keeps by itself and a client can neither act on
//     nor needs to check (patterns, lengths, numeric ranges, property-name
//     patterns and the ban on unknown properties); [For] and [Components]
//     keep them for the project's own contract tests and the OpenAPI
//     document.
//   - "$id" is [IDPrefix] + name + ":" + the first 16 hex digits of the
//     SHA-256 of the schema without its "$id": a client that caches compiled
//     validators by "$id" (the TypeScript SDK does) compiles each version of
//     a schema once, and never reuses a stale one.
//
// The result is a fresh copy.
func Output(name string) *jsonschema.Schema {
	b := built()
	if _, ok := b.base[name]; !ok {
		return nil
	}
	s := b.expand(name, DefsRef)
	defs := map[string]*jsonschema.Schema{}
	pending := refsOf(s, nil)
	for len(pending) > 0 {
		n := pending[0]
		pending = pending[1:]
		if defs[n] != nil {
			continue
		}
		d := b.expand(n, DefsRef)
		defs[n] = d
		pending = refsOf(d, pending)
	}
	slim(s)
	for _, d := range defs {
		slim(d)
	}
	if len(defs) > 0 {
		s.Defs = defs
	}
	s.Schema = Draft
	body, err := json.Marshal(s)
	if err != nil {
		panic(fmt.Sprintf("schema: encoding %s: %v", name, err)) // a defect: the schema is the package's own
	}
	sum := sha256.Sum256(body)
	s.ID = IDPrefix + name + ":" + hex.EncodeToString(sum[:8])
	return s
}

// refsOf appends to names the resources that s refers to with [DefsRef].
func refsOf(s *jsonschema.Schema, names []string) []string {
	if s == nil {
		return names
	}
	if n, ok := strings.CutPrefix(s.Ref, DefsRef); ok {
		names = append(names, n)
	}
	names = refsOf(s.Items, names)
	names = refsOf(s.AdditionalProperties, names)
	for _, a := range s.AnyOf {
		names = refsOf(a, names)
	}
	for _, k := range slices.Sorted(maps.Keys(s.Properties)) {
		names = refsOf(s.Properties[k], names)
	}
	return names
}

// slim rewrites s in place into the form of [Output]: nullable types as
// anyOf, and without the constraints a client cannot use.
func slim(s *jsonschema.Schema) {
	if s == nil {
		return
	}
	s.Pattern, s.MinLength, s.MaxLength, s.Minimum, s.Maximum, s.PropertyNames = "", nil, nil, nil, nil, nil
	if a := s.AdditionalProperties; a != nil && a.Not != nil {
		s.AdditionalProperties = nil // the ban on unknown properties
	}
	slim(s.Items)
	slim(s.AdditionalProperties)
	for _, a := range s.AnyOf {
		slim(a)
	}
	for _, p := range s.Properties {
		slim(p)
	}
	if len(s.Types) == 2 && slices.Contains(s.Types, "null") {
		branch := *s
		branch.Description, branch.Title, branch.Types = "", "", nil
		branch.Type = s.Types[0]
		if branch.Type == "null" {
			branch.Type = s.Types[1]
		}
		*s = jsonschema.Schema{Title: s.Title, Description: s.Description,
			AnyOf: []*jsonschema.Schema{&branch, {Type: "null"}}}
	}
}

// Components returns every schema by name with nested resources written as
// {"$ref": "#/components/schemas/<Name>"} (see [ComponentsRef]), as the
// components.schemas section of an OpenAPI 3.1 document wants them. The
// result is a fresh copy.
func Components() map[string]*jsonschema.Schema {
	b := built()
	out := make(map[string]*jsonschema.Schema, len(b.base))
	for name := range b.base {
		out[name] = b.expand(name, ComponentsRef)
	}
	return out
}

// refComment marks a placeholder for a nested resource in a base schema.
const refComment = "ref:"

type set struct {
	// base holds each schema with nested resources as placeholders
	// {"$comment": "ref:<Name>"} (type ["null"] added when nullable).
	base map[string]*jsonschema.Schema
}

// built returns the schemas, inferred and tightened on first use. The value
// is never mutated after construction; callers get clones.
var built = sync.OnceValue(func() *set {
	s, err := build()
	if err != nil {
		// The inputs are the package's own types: a failure is a defect
		// that every test run catches.
		panic(err)
	}
	return s
})

func build() (*set, error) {
	placeholder := func(name string) *jsonschema.Schema {
		return &jsonschema.Schema{Comment: refComment + name}
	}
	nested := map[reflect.Type]string{
		reflect.TypeFor[registry.Address]():           Address,
		reflect.TypeFor[registry.IndustryCode]():      IndustryCode,
		reflect.TypeFor[registry.PublishedDeadline](): PublishedDeadline,
		reflect.TypeFor[registry.SearchHit]():         SearchHit,
		reflect.TypeFor[registry.Deadline]():          Deadline,
		reflect.TypeFor[registry.CountryInfo]():       CountryInfo,
		reflect.TypeFor[registry.Role]():              Role,
		reflect.TypeFor[registry.RoleHolder]():        RoleHolder,
	}
	groups := make([]any, 0, len(registry.RoleGroups()))
	for _, g := range registry.RoleGroups() {
		groups = append(groups, string(g))
	}
	leaf := map[reflect.Type]*jsonschema.Schema{
		reflect.TypeFor[registry.Date](): {Type: "string", Format: "date"},
		reflect.TypeFor[time.Time]():     {Type: "string", Format: "date-time"},
		reflect.TypeFor[registry.Status](): {Type: "string", Enum: []any{
			string(registry.StatusActive), string(registry.StatusUnderLiquidation),
			string(registry.StatusUnderCompulsoryLiquidation), string(registry.StatusBankrupt),
			string(registry.StatusDissolved), string(registry.StatusDeleted), string(registry.StatusUnknown),
		}},
		reflect.TypeFor[registry.Recurrence](): {Type: "string", Enum: []any{
			string(registry.RecurrenceAnnual), string(registry.RecurrenceSemiannual), string(registry.RecurrenceBimonthly),
			string(registry.RecurrenceQuarterly), string(registry.RecurrenceMonthly),
			string(registry.RecurrenceOneOff),
		}},
		reflect.TypeFor[registry.RoleGroup](): {Type: "string", Enum: groups},
	}
	types := map[string]reflect.Type{
		CompanyReport:     reflect.TypeFor[registry.CompanyReport](),
		Address:           reflect.TypeFor[registry.Address](),
		IndustryCode:      reflect.TypeFor[registry.IndustryCode](),
		PublishedDeadline: reflect.TypeFor[registry.PublishedDeadline](),
		SearchResult:      reflect.TypeFor[registry.SearchResult](),
		SearchHit:         reflect.TypeFor[registry.SearchHit](),
		DeadlineReport:    reflect.TypeFor[registry.DeadlineReport](),
		Deadline:          reflect.TypeFor[registry.Deadline](),
		ValidationResult:  reflect.TypeFor[registry.ValidationResult](),
		CountriesResponse: reflect.TypeFor[registry.CountriesResponse](),
		CountryInfo:       reflect.TypeFor[registry.CountryInfo](),
		HealthResponse:    reflect.TypeFor[registry.HealthResponse](),
		RolesReport:       reflect.TypeFor[registry.RolesReport](),
		Role:              reflect.TypeFor[registry.Role](),
		RoleHolder:        reflect.TypeFor[registry.RoleHolder](),
	}
	out := &set{base: make(map[string]*jsonschema.Schema, len(types)+1)}
	for name, t := range types {
		ts := make(map[reflect.Type]*jsonschema.Schema, len(leaf)+len(nested))
		for lt, ls := range leaf {
			ts[lt] = ls
		}
		for nt, nn := range nested {
			if nt != t { // the type itself is inferred, its children are placeholders
				ts[nt] = placeholder(nn)
			}
		}
		s, err := jsonschema.ForType(t, &jsonschema.ForOptions{TypeSchemas: ts})
		if err != nil {
			return nil, fmt.Errorf("schema: inferring %s: %w", name, err)
		}
		normalize(s)
		s.Title = name
		out.base[name] = s
	}
	out.base[Error] = errorSchema()
	tighten(out.base)
	for name, d := range descriptions() {
		out.base[name].Description = d
	}
	return out, nil
}

// normalize rewrites what inference produces into the wire contract: lists
// are never null, and a nullable type is written ["T","null"].
func normalize(s *jsonschema.Schema) {
	if s == nil {
		return
	}
	if len(s.Types) == 2 && s.Types[0] == "null" {
		if s.Types[1] == "array" {
			s.Type, s.Types = "array", nil
		} else {
			s.Types = []string{s.Types[1], "null"}
		}
	}
	normalize(s.Items)
	normalize(s.AdditionalProperties)
	for _, p := range s.Properties {
		normalize(p)
	}
}

// tighten adds what the interface says beyond the Go types.
func tighten(base map[string]*jsonschema.Schema) {
	prop := func(schema, field string) *jsonschema.Schema {
		s := base[schema]
		if s == nil || s.Properties[field] == nil {
			panic(fmt.Sprintf("schema: no property %s.%s", schema, field))
		}
		return s.Properties[field]
	}
	zero, one := 0.0, 1.0
	countryCode := `^[A-Z]{2}$`
	canonicalID := `^[A-Za-z0-9]+$`

	for _, name := range []string{CompanyReport, SearchHit} {
		c := prop(name, "confidence")
		c.Minimum, c.Maximum = &zero, &one
		prop(name, "id").Pattern = canonicalID
		prop(name, "name").MinLength = jsonschema.Ptr(1)
	}
	prop(CompanyReport, "employees").Minimum = &zero
	prop(IndustryCode, "rank").Minimum = &one
	prop(SearchResult, "total").Minimum = &zero
	prop(SearchResult, "query").MinLength = jsonschema.Ptr(1)
	prop(DeadlineReport, "company_id").Pattern = canonicalID
	prop(HealthResponse, "countries").Items.Pattern = countryCode
	prop(HealthResponse, "status").Enum = []any{"ok"}
	prop(HealthResponse, "cache").Enum = []any{cache.BackendMemory, cache.BackendRedis, cache.BackendNone, cache.BackendCustom}
	prop(CompanyReport, "registers").PropertyNames = &jsonschema.Schema{Pattern: `^[a-z0-9_]+$`}
	prop(RolesReport, "id").Pattern = canonicalID
	prop(RoleHolder, "kind").Enum = []any{registry.HolderPerson, registry.HolderEntity}
	prop(RoleHolder, "birth_month").Minimum, prop(RoleHolder, "birth_month").Maximum = &one, jsonschema.Ptr(12.0)
	for _, name := range []string{CompanyReport, SearchResult, SearchHit, DeadlineReport, Deadline,
		ValidationResult, CountryInfo, RolesReport} {
		prop(name, "country").Pattern = countryCode
		prop(name, "registry").MinLength = jsonschema.Ptr(1)
	}
	prop(CountryInfo, "api_key_env").Pattern = `^[A-Z][A-Z0-9_]*$`
}

// descriptions returns the one-sentence description of each schema.
func descriptions() map[string]string {
	return map[string]string{
		CompanyReport:     "The full, country-neutral report on one registered entity. Unknown values are null, never \"\" or 0.",
		Address:           "A postal or visiting address as the register holds it.",
		IndustryCode:      "One activity classification of an entity; rank 1 is the primary activity.",
		PublishedDeadline: "A date the upstream register publishes itself, carried verbatim.",
		SearchResult:      "The answer to a name search: thin hits, best first.",
		SearchHit:         "A deliberately thin search candidate; look its id up before acting on it.",
		DeadlineReport:    "The next occurrence of each statutory filing obligation of an entity, sorted by due_date.",
		Deadline:          "The next occurrence of one statutory filing obligation.",
		ValidationResult:  "The offline verdict on an identifier's format and checksum; valid does not imply the entity exists.",
		CountriesResponse: "The registries that can answer now, sorted by country code.",
		CountryInfo:       "One national registry module.",
		HealthResponse:    "The liveness answer.",
		RolesReport:       "Who runs an entity, who may sign for it and who controls it, as the register publishes it: current roles first, then by group.",
		Role:              "One registered role of one holder; current is false for a role the holder has left.",
		RoleHolder:        "A person or an entity holding a role. A person's birth is never more than year and month.",
		Error:             "The error envelope every failure carries on both surfaces.",
	}
}

// errorSchema is the error envelope, written by hand: [registry.Error] has a
// custom encoding.
func errorSchema() *jsonschema.Schema {
	codes := make([]any, 0, len(registry.Codes()))
	for _, c := range registry.Codes() {
		codes = append(codes, string(c))
	}
	nullableString := func() *jsonschema.Schema { return &jsonschema.Schema{Types: []string{"string", "null"}} }
	body := &jsonschema.Schema{
		Type: "object",
		Properties: map[string]*jsonschema.Schema{
			"code":     {Type: "string", Enum: codes, Description: "Stable machine code; branch on it, never on the message."},
			"message":  {Type: "string", MinLength: jsonschema.Ptr(1), Description: "Human-readable sentence."},
			"hint":     {Type: "string", MinLength: jsonschema.Ptr(1), Description: "The next action to take."},
			"country":  nullableString(),
			"registry": nullableString(),
			"details": {
				Type:        "object",
				Description: "Extra data; for rate_limited it holds retry_after (seconds), for cursor_expired oldest_cursor (where to resume the change feed).",
				Properties: map[string]*jsonschema.Schema{
					"retry_after":   {Type: "integer", Minimum: jsonschema.Ptr(0.0)},
					"oldest_cursor": {Type: "string", MinLength: jsonschema.Ptr(1)},
				},
			},
		},
		PropertyOrder:        []string{"code", "message", "hint", "country", "registry", "details"},
		Required:             []string{"code", "message", "hint", "country", "registry", "details"},
		AdditionalProperties: &jsonschema.Schema{Not: &jsonschema.Schema{}},
	}
	body.Properties["country"].Pattern = `^[A-Z]{2}$`
	return &jsonschema.Schema{
		Title:                Error,
		Type:                 "object",
		Properties:           map[string]*jsonschema.Schema{"error": body},
		Required:             []string{"error"},
		AdditionalProperties: &jsonschema.Schema{Not: &jsonschema.Schema{}},
	}
}

// expand returns a deep copy of the base schema name with its placeholders
// replaced: by "$ref": prefix+Name when prefix is set, else by the nested
// schema inlined (itself expanded).
func (b *set) expand(name, prefix string) *jsonschema.Schema {
	s := b.base[name].CloneSchemas()
	b.replace(s, prefix)
	return s
}

func (b *set) replace(s *jsonschema.Schema, prefix string) {
	if s == nil {
		return
	}
	sub := func(p *jsonschema.Schema) *jsonschema.Schema {
		target, ok := strings.CutPrefix(p.Comment, refComment)
		if !ok {
			b.replace(p, prefix)
			return p
		}
		nullable := slices.Contains(p.Types, "null")
		if prefix != "" {
			ref := &jsonschema.Schema{Ref: prefix + target}
			if nullable {
				return &jsonschema.Schema{AnyOf: []*jsonschema.Schema{ref, {Type: "null"}}}
			}
			return ref
		}
		in := b.expand(target, "")
		in.Title = ""
		if nullable {
			in.Types = []string{in.Type, "null"}
			in.Type = ""
		}
		return in
	}
	if s.Items != nil {
		s.Items = sub(s.Items)
	}
	for k, p := range s.Properties {
		s.Properties[k] = sub(p)
	}
}
