package restserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/internal/catalog"
	"github.com/companyregistry/registry/internal/ops"
	"github.com/companyregistry/registry/schema"
)

// OpenAPIVersion is info.version of /openapi.json: the version of the
// interface, not of the software.
const OpenAPIVersion = "0.2.0"

type openAPIDoc struct {
	OpenAPI           string                    `json:"openapi"`
	Info              openAPIInfo               `json:"info"`
	JSONSchemaDialect string                    `json:"jsonSchemaDialect"`
	Servers           []openAPIServer           `json:"servers"`
	Paths             map[string]map[string]any `json:"paths"`
	Components        map[string]map[string]any `json:"components"`
}

type openAPIInfo struct {
	Title       string `json:"title"`
	Version     string `json:"version"`
	Description string `json:"description"`
}

type openAPIServer struct {
	URL string `json:"url"`
}

type openAPIParam struct {
	Name        string          `json:"name"`
	In          string          `json:"in"`
	Required    bool            `json:"required"`
	Description string          `json:"description"`
	Schema      json.RawMessage `json:"schema"`
}

type openAPIOperation struct {
	OperationID string                     `json:"operationId"`
	Summary     string                     `json:"summary"`
	Description string                     `json:"description"`
	Parameters  []openAPIParam             `json:"parameters,omitempty"`
	RequestBody *openAPIRequestBody        `json:"requestBody,omitempty"`
	Responses   map[string]openAPIResponse `json:"responses"`
	Security    []map[string][]string      `json:"security,omitempty"`
}

type openAPIRequestBody struct {
	Required bool                      `json:"required"`
	Content  map[string]map[string]any `json:"content"`
}

type openAPIResponse struct {
	Description string                    `json:"description"`
	Headers     map[string]map[string]any `json:"headers,omitempty"`
	Content     map[string]map[string]any `json:"content,omitempty"`
}

func jsonContent(ref string) map[string]map[string]any {
	return map[string]map[string]any{"application/json": {"schema": map[string]string{"$ref": ref}}}
}

// openAPI builds /openapi.json: OpenAPI 3.1 with the schemas of the schema
// package as components, so the document and the Go types cannot drift.
//
// The server is the base URL when a public URL fixes it, else the base path
// ("/" at the host root), relative to the document.
func (d docInputs) openAPI(absolute bool) ([]byte, error) {
	server := rootPlaceholder
	if absolute {
		server = basePlaceholder
	}
	doc := openAPIDoc{
		OpenAPI: "3.1.0",
		Info: openAPIInfo{
			Title:   ops.ServerTitle,
			Version: OpenAPIVersion,
			Description: "Answers questions about registered companies from national business registers, for any " +
				"supported country, in one country-neutral JSON shape. Every failure carries the Error envelope; " +
				"branch on error.code. Another method than GET or HEAD on a route is 405 with the envelope " +
				"(code bad_request) and an Allow header; an unknown route is 404 not_found. Software version " + d.Version + ".",
		},
		JSONSchemaDialect: schema.Draft,
		Servers:           []openAPIServer{{URL: server}},
		Paths:             map[string]map[string]any{},
		Components:        map[string]map[string]any{"schemas": {}},
	}
	comps, err := catalog.Components()
	if err != nil {
		return nil, err
	}
	skip := map[string]bool{}
	if !d.Changes {
		for _, name := range catalog.ChangeDocuments() {
			skip[name] = true
		}
	}
	for name, s := range comps {
		if !skip[name] {
			doc.Components["schemas"][name] = s
		}
	}
	all := catalog.Operations()
	if d.Changes {
		all = append(all, catalog.ChangeOperations()...)
		doc.Components["securitySchemes"] = map[string]any{catalog.BearerScheme: map[string]any{
			"type": "http", "scheme": "bearer",
			"description": "An API token from the operator of this deployment; each token sees only its own watches and changes.",
		}}
	}
	errRef := schema.ComponentsRef + schema.Error
	for _, op := range all {
		if op.Resource {
			typ := "string"
			if op.MediaType() == "application/json" {
				typ = "object"
			}
			doc.Paths[op.Pattern] = map[string]any{strings.ToLower(op.Method): openAPIOperation{
				OperationID: op.Name, Summary: op.Summary, Description: op.Doc,
				Responses: map[string]openAPIResponse{"200": {Description: op.Summary + ".",
					Content: map[string]map[string]any{op.MediaType(): {"schema": map[string]string{"type": typ}}}}},
			}}
			continue
		}
		o := openAPIOperation{
			OperationID: op.Name,
			Summary:     op.Summary,
			Description: op.Doc,
			Responses: map[string]openAPIResponse{
				"200": {Description: "A " + op.Result + ".", Content: jsonContent(schema.ComponentsRef + op.Result)},
			},
		}
		if st := op.SuccessStatus(); st != 200 {
			r := o.Responses["200"]
			delete(o.Responses, "200")
			if st == 204 {
				r = openAPIResponse{Description: "Done; no body."}
			}
			o.Responses[strconv.Itoa(st)] = r
		}
		if op.Auth {
			o.Security = []map[string][]string{{catalog.BearerScheme: {}}}
		}
		if op.ContentType != "" {
			o.Responses["200"] = openAPIResponse{Description: "A " + op.Result + ".",
				Content: map[string]map[string]any{op.MediaType(): {"schema": map[string]string{"type": "string"}}}}
		}
		if op.Body != "" {
			o.RequestBody = &openAPIRequestBody{Required: true, Content: jsonContent(schema.ComponentsRef + op.Body)}
		}
		for _, p := range op.RESTParams() {
			ps, err := p.OpenAPISchema()
			if err != nil {
				return nil, err
			}
			o.Parameters = append(o.Parameters, openAPIParam{Name: p.Name, In: string(p.In), Required: p.Required,
				Description: p.Doc, Schema: ps})
		}
		byStatus := map[int][]registry.Code{}
		for _, c := range op.Errors {
			byStatus[c.HTTPStatus()] = append(byStatus[c.HTTPStatus()], c)
		}
		for status, codes := range byStatus {
			desc := "Error envelope; code "
			for i, c := range codes {
				if i > 0 {
					desc += " or "
				}
				desc += string(c)
			}
			r := openAPIResponse{Description: desc + ".", Content: jsonContent(errRef)}
			if status == 401 {
				r.Headers = map[string]map[string]any{"WWW-Authenticate": {
					"description": "The Bearer challenge.", "schema": map[string]any{"type": "string"},
				}}
			}
			if status == 429 {
				r.Headers = map[string]map[string]any{"Retry-After": {
					"description": "Seconds to wait before retrying (also error.details.retry_after).",
					"schema":      map[string]any{"type": "integer", "minimum": 1},
				}}
			}
			o.Responses[strconv.Itoa(status)] = r
		}
		if doc.Paths[op.Pattern] == nil {
			doc.Paths[op.Pattern] = map[string]any{}
		}
		doc.Paths[op.Pattern][strings.ToLower(op.Method)] = o
	}

	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return nil, fmt.Errorf("restserver: openapi.json: %w", err)
	}
	return buf.Bytes(), nil
}
