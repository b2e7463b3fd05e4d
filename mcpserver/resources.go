package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/internal/catalog"
	"github.com/companyregistry/registry/internal/ops"
)

// RulesURITemplate is the URI template of the rules resources.
const RulesURITemplate = catalog.RulesURITemplate

// PromptExplainCompany is the name of the prompt that asks for a
// plain-language summary of one company.
const PromptExplainCompany = catalog.PromptExplainCompany

func (h *handlers) addResources(srv *mcp.Server) {
	r := catalog.RulesResource()
	srv.AddResourceTemplate(&mcp.ResourceTemplate{
		Name:        r.Name,
		Title:       r.Title,
		URITemplate: r.URITemplate,
		MIMEType:    r.MIMEType,
		Description: r.TemplateDescription,
	}, h.recoverResource(h.readRules))
	listed := map[string]bool{}
	for _, c := range h.reg.Countries().Countries {
		listed[c.Country] = true
	}
	for _, c := range h.ops.Modules() {
		if c.IsStub && !listed[c.Country] {
			continue
		}
		srv.AddResource(&mcp.Resource{
			Name:        r.Name + "_" + strings.ToLower(c.Country),
			Title:       "Registry rules: " + c.Name + " (" + c.Country + ")",
			URI:         r.Prefix + c.Country,
			MIMEType:    r.MIMEType,
			Description: r.Description,
		}, h.recoverResource(h.readRules))
	}
}

// readRules answers registry://rules/{country} for any case of the code; a
// country without a module is a JSON-RPC error whose message and data are
// the unsupported_country envelope.
func (h *handlers) readRules(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	uri := req.Params.URI
	r := catalog.RulesResource()
	code, ok := strings.CutPrefix(uri, r.Prefix)
	if !ok {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	doc, err := h.reg.Rules(code)
	if err != nil {
		return nil, envelopeError(err)
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{
		{URI: uri, MIMEType: r.MIMEType, Text: doc},
	}}, nil
}

// envelopeError returns err as a JSON-RPC error whose message is the error
// envelope and whose data is the same envelope as JSON: invalid params, or
// internal error for an internal_error (a defect, or an error that could not
// be encoded).
func envelopeError(err error) *jsonrpc.Error {
	b, e := ops.EnvelopeJSON(err)
	code := int64(jsonrpc.CodeInvalidParams)
	if e.Code == registry.CodeInternalError {
		code = jsonrpc.CodeInternalError
	}
	return &jsonrpc.Error{Code: code, Message: string(b), Data: b}
}

func (h *handlers) addPrompts(srv *mcp.Server) {
	p := catalog.ExplainCompany()
	args := make([]*mcp.PromptArgument, 0, len(p.Args))
	for _, a := range p.Args {
		args = append(args, &mcp.PromptArgument{Name: a.Name, Title: a.Title, Required: a.Required, Description: a.Description})
	}
	srv.AddPrompt(&mcp.Prompt{Name: p.Name, Title: p.Title, Description: p.Description, Arguments: args}, h.recoverPrompt(p.Name, h.explainCompany))
}

// explainCompanyArgs are the arguments explain_company takes, in the order
// its refusal of another names them.
var explainCompanyArgs = func() []string {
	var names []string
	for _, a := range catalog.ExplainCompany().Args {
		names = append(names, a.Name)
	}
	return names
}()

func (h *handlers) explainCompany(_ context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
	id := strings.TrimSpace(req.Params.Arguments["id"])
	// Absent and "" are the default; a blank country (" ") is no country
	// code, as in the tools (the Registry trims a code it is given).
	country := req.Params.Arguments["country"]
	if country == "" {
		country = DefaultCountry
	}
	// An unknown argument is refused, as the tools refuse one, so that a
	// misspelt country never falls back to the default: the least by name,
	// so that the answer does not depend on map order.
	if unknown, found := ops.UnknownMember(req.Params.Arguments, explainCompanyArgs...); found {
		return nil, envelopeError(h.badRequest(country,
			fmt.Sprintf("Unknown argument %s; this prompt takes %s.", ops.Quote(unknown), strings.Join(explainCompanyArgs, ", ")),
			"Retry with only the documented arguments."))
	}
	if id == "" {
		return nil, envelopeError(h.badRequest(country, "The prompt argument id is missing or empty.",
			"Pass the company's national identifier as id, for example 923609016."))
	}
	// Offline: an unsupported country is answered with its envelope now.
	v, err := h.reg.Validate(country, id)
	if err != nil {
		return nil, envelopeError(err)
	}
	if v.Valid && v.Normalized != nil {
		id = *v.Normalized
	}
	country = v.Country // the canonical code
	call, _ := json.Marshal(struct {
		ID      string `json:"id"`
		Country string `json:"country"`
	}{id, country})
	text, err := catalog.ExplainCompanyText(id, country, string(call))
	if err != nil {
		return nil, envelopeError(&registry.Error{Code: registry.CodeInternalError,
			Message: "The prompt could not be written.", Err: err})
	}
	return &mcp.GetPromptResult{
		Description: "Plain-language summary of company " + id + " (" + country + ")",
		Messages: []*mcp.PromptMessage{
			{Role: "user", Content: &mcp.TextContent{Text: text}},
		},
	}, nil
}

// complete suggests country codes for the country argument of
// explain_company and for {country} in the rules template: the codes that
// can answer now, matching what was typed so far in any case.
func (h *handlers) complete(_ context.Context, req *mcp.CompleteRequest) (*mcp.CompleteResult, error) {
	return complete(h.reg, req.Params), nil
}

// complete answers a completion request's params p from reg.
func complete(reg *registry.Registry, p *mcp.CompleteParams) *mcp.CompleteResult {
	res := &mcp.CompleteResult{Completion: mcp.CompletionResultDetails{Values: []string{}}}
	if p == nil || p.Ref == nil || p.Argument.Name != "country" {
		return res
	}
	switch {
	case p.Ref.Type == "ref/prompt" && p.Ref.Name == PromptExplainCompany:
	case p.Ref.Type == "ref/resource" && p.Ref.URI == RulesURITemplate:
	default:
		return res
	}
	prefix := strings.ToUpper(strings.TrimSpace(p.Argument.Value))
	for _, c := range reg.Countries().Countries {
		if strings.HasPrefix(c.Country, prefix) {
			res.Completion.Values = append(res.Completion.Values, c.Country)
		}
	}
	res.Completion.Total = len(res.Completion.Values)
	return res
}
