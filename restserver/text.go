package restserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/internal/catalog"
	"github.com/companyregistry/registry/internal/ops"
)

type textResources struct {
	llms, llmsFull, serverJSON, openAPI *template
}

func buildText(reg *registry.Registry, o options) (*textResources, error) {
	fixed := fixedLocation(o)
	d := docInputs{catalog.TextInputs{BaseURL: basePlaceholder, MCPURL: mcpURL(o.mcpPath), Version: reg.Version(),
		Countries: ops.New(reg).Modules(), Rules: map[string]string{}, RateLimit: o.rateLimit, Shared: o.limiter != nil,
		Changes: o.changes != nil, MaxHeaderBytes: o.maxHeader}}
	for _, c := range d.Countries {
		rules, err := reg.Rules(c.Country)
		if err != nil {
			return nil, fmt.Errorf("restserver: rules of %s: %w", c.Country, err)
		}
		d.Rules[c.Country] = rules
	}
	serverJSON, err := d.serverJSON()
	if err != nil {
		return nil, err
	}
	openAPI, err := d.openAPI(o.publicURL != "")
	if err != nil {
		return nil, err
	}
	llms, err := catalog.Render(catalog.LLMSTxt, d.TextInputs)
	if err != nil {
		return nil, err
	}
	full, err := catalog.Render(catalog.LLMSFullTxt, d.TextInputs)
	if err != nil {
		return nil, err
	}
	return &textResources{
		llms:       newTemplate(llms, false, fixed),
		llmsFull:   newTemplate(full, false, fixed),
		serverJSON: newTemplate(serverJSON, true, fixed),
		openAPI:    newTemplate(string(openAPI), true, fixed),
	}, nil
}

// docInputs is what the text resources say about the deployment.
type docInputs struct {
	catalog.TextInputs
}

// mcpURL is the advertised MCP endpoint of a WithMCPPath value: a path
// after the base URL, or an absolute URL as it is.
func mcpURL(p string) string {
	if p == "" || strings.HasPrefix(p, "http://") || strings.HasPrefix(p, "https://") {
		return p
	}
	return basePlaceholder + p
}

func (d docInputs) codes() []string {
	codes := make([]string, 0, len(d.Countries))
	for _, c := range d.Countries {
		codes = append(codes, c.Country)
	}
	return codes
}

// server.json: the MCP registry manifest (schema 2025-12-11).

// ServerJSONSchemaURL is the "$schema" of /server.json.
const ServerJSONSchemaURL = "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json"

// ServerName is the name of the server in /server.json, the same as the
// MCP serverInfo name of mcpserver.
const ServerName = ops.ServerName

type serverManifest struct {
	Schema      string         `json:"$schema"`
	Name        string         `json:"name"`
	Title       string         `json:"title"`
	Description string         `json:"description"`
	Version     string         `json:"version"`
	WebsiteURL  string         `json:"websiteUrl"`
	Remotes     []remote       `json:"remotes,omitempty"`
	Meta        map[string]any `json:"_meta"`
}

type remote struct {
	Type string `json:"type"`
	URL  string `json:"url"`
}

// serverDescription is server.json's one line (at most 100 characters):
// change alerts only where the server serves change monitoring.
func (d docInputs) serverDescription() string {
	if d.Changes {
		return "Business registers: company lookup, name search, roles, filing deadlines, ID checks, change alerts."
	}
	return "Business registers: company lookup, name search, roles, filing deadlines, ID checks."
}

func (d docInputs) serverJSON() (string, error) {
	m := serverManifest{
		Schema:      ServerJSONSchemaURL,
		Name:        ServerName,
		Title:       ops.ServerTitle,
		Description: d.serverDescription(),
		Version:     d.Version,
		WebsiteURL:  basePlaceholder + "/llms.txt",
		Meta: map[string]any{
			"io.modelcontextprotocol.registry/publisher-provided": map[string]any{
				"countries": d.codes(),
				"documentation": map[string]string{
					"llmsTxt":     basePlaceholder + "/llms.txt",
					"llmsFullTxt": basePlaceholder + "/llms-full.txt",
					"openapi":     basePlaceholder + "/openapi.json",
				},
			},
		},
	}
	if d.MCPURL != "" {
		m.Remotes = []remote{{Type: "streamable-http", URL: d.MCPURL}}
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(m); err != nil {
		return "", fmt.Errorf("restserver: server.json: %w", err)
	}
	return buf.String(), nil
}
