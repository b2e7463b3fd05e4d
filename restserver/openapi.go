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
	Security          []map[string][]string     `json:"security"`
	Tags              []openAPITag              `json:"tags"`
	Paths             map[string]map[string]any `json:"paths"`
	Webhooks          map[string]map[string]any `json:"webhooks,omitempty"`
	Components        map[string]map[string]any `json:"components"`
}

type openAPITag struct {
	Name        string `json:"name"`
	Description string `json:"description"`
}

type openAPIInfo struct {
	Title       string         `json:"title"`
	Version     string         `json:"version"`
	Description string         `json:"description"`
	License     openAPILicense `json:"license"`
}

type openAPILicense struct {
	Name       string `json:"name"`
	Identifier string `json:"identifier"`
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
	Example     any             `json:"example,omitempty"`
}

type openAPIOperation struct {
	OperationID string                     `json:"operationId"`
	Tags        []string                   `json:"tags"`
	Summary     string                     `json:"summary"`
	Description string                     `json:"description"`
	Parameters  []openAPIParam             `json:"parameters,omitempty"`
	RequestBody *openAPIRequestBody        `json:"requestBody,omitempty"`
	Responses   map[string]openAPIResponse `json:"responses"`
	Security    []map[string][]string      `json:"security,omitempty"`
}

type openAPIRequestBody struct {
	Required bool                        `json:"required"`
	Content  map[string]openAPIMediaType `json:"content"`
}

type openAPIResponse struct {
	Description string                      `json:"description"`
	Headers     map[string]map[string]any   `json:"headers,omitempty"`
	Content     map[string]openAPIMediaType `json:"content,omitempty"`
}

// openAPIMediaType is a Media Type Object: a schema and one example, or
// named examples.
type openAPIMediaType struct {
	Schema   any                       `json:"schema"`
	Example  any                       `json:"example,omitempty"`
	Examples map[string]openAPIExample `json:"examples,omitempty"`
}

type openAPIExample struct {
	Summary string `json:"summary"`
	Value   any    `json:"value"`
}

func ref(name string) map[string]string {
	return map[string]string{"$ref": schema.ComponentsRef + name}
}

// exampleValue returns an example as the document holds it: JSON as its
// value, anything else as a string.
func exampleValue(mediaType string, b []byte) any {
	if mediaType == "application/json" {
		return json.RawMessage(bytes.TrimSpace(b))
	}
	return string(b)
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
				"(code bad_request) and an Allow header; an unknown route is 404 not_found. " + d.headerSentence() +
				"The software is under the MIT licence; each register's data has its own licence (CountryInfo.license, " +
				"and license in every report). Software version " + d.Version + ".",
			License: openAPILicense{Name: "MIT", Identifier: "MIT"},
		},
		JSONSchemaDialect: schema.Draft,
		Servers:           []openAPIServer{{URL: server}},
		// No operation asks its caller for a credential.
		Security:   []map[string][]string{},
		Paths:      map[string]map[string]any{},
		Components: map[string]map[string]any{"schemas": {}},
	}
	tags := catalog.Tags()
	if d.Changes {
		tags = append(tags, catalog.ChangeTags()...)
	}
	for _, t := range tags {
		doc.Tags = append(doc.Tags, openAPITag{Name: t.Name, Description: t.Description})
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
		hook, err := webhookOperation()
		if err != nil {
			return nil, err
		}
		doc.Webhooks = map[string]map[string]any{"companyChange": {"post": hook}}
	}
	for _, op := range all {
		o, err := openAPIOperationOf(op, doc.Info)
		if err != nil {
			return nil, err
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

// headerSentence is what the document says of WithMaxHeaderBytes, with a
// trailing space; "" without a bound.
func (d docInputs) headerSentence() string {
	if d.MaxHeaderBytes == 0 {
		return ""
	}
	return "A request line plus headers over " + d.HeaderBound() + " is 431 with the envelope (code bad_request): " +
		"shorten the query or the headers; a request far past the bound may get the HTTP server's own plain-text 431. "
}

// openAPIOperationOf describes one operation of the catalogue: its tag,
// its parameters with their examples, the 200 answer with the recorded
// example of the catalogue and one response per error status with the
// envelope schema and a recorded envelope of each of its codes.
func openAPIOperationOf(op catalog.Operation, info openAPIInfo) (openAPIOperation, error) {
	o := openAPIOperation{OperationID: op.Name, Tags: []string{op.Tag}, Summary: op.Summary, Description: op.Doc,
		Responses: map[string]openAPIResponse{}}
	ok := openAPIMediaType{Schema: ref(op.Result)}
	desc := "A " + op.Result + "."
	switch {
	case op.Name == "openAPI":
		// The document's own example is its opening, not a copy of itself.
		ok = openAPIMediaType{Schema: map[string]string{"type": "object"},
			Example: map[string]any{"openapi": "3.1.0", "info": info}}
		desc = op.Summary + "."
	case op.Resource || op.ContentType != "":
		typ := "string"
		if op.MediaType() == "application/json" {
			typ = "object"
		}
		ok.Schema = map[string]string{"type": typ}
		if op.Resource {
			desc = op.Summary + "."
		}
	}
	if op.ExamplePath != "" {
		b, err := op.Example()
		if err != nil {
			return o, fmt.Errorf("restserver: openapi.json: example of %s: %w", op.Name, err)
		}
		ok.Example = exampleValue(op.MediaType(), b)
	}
	o.Responses["200"] = openAPIResponse{Description: desc, Content: map[string]openAPIMediaType{op.MediaType(): ok}}
	if st := op.SuccessStatus(); st != 200 {
		r := o.Responses["200"]
		delete(o.Responses, "200")
		switch st {
		case 204:
			r = openAPIResponse{Description: "Done; no body."}
		case 201:
			r.Headers = map[string]map[string]any{"Location": {
				"description": "The path of the resource created.", "schema": map[string]any{"type": "string"},
			}}
		}
		o.Responses[strconv.Itoa(st)] = r
	}
	if op.Auth {
		o.Security = []map[string][]string{{catalog.BearerScheme: {}}}
	}
	if op.Body != "" {
		body := openAPIMediaType{Schema: ref(op.Body)}
		if op.BodyExample != "" {
			body.Example = json.RawMessage(op.BodyExample)
		}
		o.RequestBody = &openAPIRequestBody{Required: true, Content: map[string]openAPIMediaType{"application/json": body}}
	}
	for _, p := range op.RESTParams() {
		ps, err := p.OpenAPISchema()
		if err != nil {
			return o, err
		}
		var example any
		if len(p.Schema.Examples) > 0 {
			example = p.Schema.Examples[0]
		}
		o.Parameters = append(o.Parameters, openAPIParam{Name: p.Name, In: string(p.In), Required: p.Required,
			Description: p.Doc, Schema: ps, Example: example})
	}
	byStatus := map[int][]registry.Code{}
	for _, c := range op.Errors {
		byStatus[c.HTTPStatus()] = append(byStatus[c.HTTPStatus()], c)
	}
	for status, codes := range byStatus {
		desc := "Error envelope; code "
		env := openAPIMediaType{Schema: ref(schema.Error), Examples: map[string]openAPIExample{}}
		for i, c := range codes {
			if i > 0 {
				desc += " or "
			}
			desc += string(c)
			b, err := catalog.ErrorExample(c)
			if err != nil {
				return o, fmt.Errorf("restserver: openapi.json: example of %s: %w", c, err)
			}
			env.Examples[string(c)] = openAPIExample{Summary: catalog.CodeCondition(c), Value: json.RawMessage(bytes.TrimSpace(b))}
		}
		r := openAPIResponse{Description: desc + ".", Content: map[string]openAPIMediaType{"application/json": env}}
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
	return o, nil
}

// webhookOperation describes the webhook a watch's endpoint receives: the
// Standard Webhooks 1.0 headers and the WebhookEvent body, with the body
// the example deployment's dispatcher sent as its example.
func webhookOperation() (map[string]any, error) {
	b, err := catalog.WebhookExample()
	if err != nil {
		return nil, fmt.Errorf("restserver: openapi.json: example of the webhook: %w", err)
	}
	header := func(name, desc, example string) map[string]any {
		h := map[string]any{"name": name, "in": "header", "required": true, "description": desc,
			"schema": map[string]string{"type": "string"}}
		if example != "" {
			h["example"] = example
		}
		return h
	}
	var event struct {
		Data struct {
			ID string `json:"id"`
		} `json:"data"`
	}
	if err := json.Unmarshal(b, &event); err != nil {
		return nil, fmt.Errorf("restserver: openapi.json: example of the webhook: %w", err)
	}
	return map[string]any{
		"operationId": "companyChangeWebhook",
		"tags":        []string{catalog.TagWatches},
		"summary":     "A change, sent to a watch's endpoint",
		"description": "Sent (POST) to the url of every enabled watch of the company whose kinds include the change's kind " +
			"(Standard Webhooks 1.0). Verify webhook-signature (v1, then the base64 of HMAC-SHA256 over " +
			"\"webhook-id.webhook-timestamp.body\" with the watch's secret, the bytes after whsec_ base64-decoded) and " +
			"the timestamp's age before trusting the body; dedupe on webhook-id, the change's id, which is the same on " +
			"every attempt. Answer 2xx within 10 seconds; anything else is retried for about three days, and 410 " +
			"disables the watch.",
		"parameters": []any{
			header("webhook-id", "The change's id: the same on every attempt; dedupe on it.", event.Data.ID),
			header("webhook-timestamp", "Unix seconds of this attempt.", ""),
			header("webhook-signature", "Space-separated v1,<base64 HMAC-SHA256> signatures.", ""),
		},
		"requestBody": map[string]any{"required": true, "content": map[string]any{"application/json": map[string]any{
			"schema": ref(catalog.DocWebhookEvent), "example": json.RawMessage(bytes.TrimSpace(b))}}},
		"responses": map[string]any{
			"200": map[string]any{"description": "Received (any 2xx)."},
			"410": map[string]any{"description": "Gone: send no more; the watch is disabled."},
		},
	}, nil
}
