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

const rulesPrefix = "registry://rules/"

// PromptExplainCompany is the name of the prompt that asks for a
// plain-language summary of one company.
const PromptExplainCompany = catalog.PromptExplainCompany

const rulesDescription = "The country's rules as one Markdown document: identifier format and checksum, legal " +
	"forms, how statuses are mapped, and the statutory deadline rules with their legal sources."

func (h *handlers) addResources(srv *mcp.Server) {
	srv.AddResourceTemplate(&mcp.ResourceTemplate{
		Name:        "rules",
		Title:       "Registry rules of a country",
		URITemplate: RulesURITemplate,
		MIMEType:    "text/markdown",
		Description: rulesDescription + " {country} is an ISO 3166-1 alpha-2 code from list_countries (GB, never UK).",
	}, h.readRules)
	listed := map[string]bool{}
	for _, c := range h.reg.Countries().Countries {
		listed[c.Country] = true
	}
	for _, c := range h.ops.Modules() {
		if c.IsStub && !listed[c.Country] {
			continue
		}
		srv.AddResource(&mcp.Resource{
			Name:        "rules_" + strings.ToLower(c.Country),
			Title:       "Registry rules: " + c.Name + " (" + c.Country + ")",
			URI:         rulesPrefix + c.Country,
			MIMEType:    "text/markdown",
			Description: rulesDescription,
		}, h.readRules)
	}
}

// readRules answers registry://rules/{country} for any case of the code; a
// country without a module is a JSON-RPC error whose message and data are
// the unsupported_country envelope.
func (h *handlers) readRules(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	uri := req.Params.URI
	code, ok := strings.CutPrefix(uri, rulesPrefix)
	if !ok {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	doc, err := h.reg.Rules(code)
	if err != nil {
		return nil, envelopeError(err)
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{
		{URI: uri, MIMEType: "text/markdown", Text: doc},
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
	srv.AddPrompt(&mcp.Prompt{
		Name:  PromptExplainCompany,
		Title: "Explain a company",
		Description: "Explain one registered company for a non-expert: what it is, whether it trades, its VAT " +
			"status, who runs it, its next filings and the caveats, using lookup_company, company_deadlines and " +
			"company_roles.",
		Arguments: []*mcp.PromptArgument{
			{Name: "id", Title: "Identifier", Required: true,
				Description: "The company's national identifier, e.g. 923609016 (NO) or 00445790 (GB)."},
			{Name: "country", Title: "Country",
				Description: "ISO 3166-1 alpha-2 country code from list_countries; default NO. The United Kingdom is GB."},
		},
	}, h.explainCompany)
}

func (h *handlers) explainCompany(_ context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
	id := strings.TrimSpace(req.Params.Arguments["id"])
	country := strings.TrimSpace(req.Params.Arguments["country"])
	if country == "" {
		country = DefaultCountry
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
	text := fmt.Sprintf(`Explain the company with identifier %s in country %s to someone who is not an expert.

1. Call lookup_company with %s.
2. Call company_deadlines with the same arguments.
3. Call company_roles with the same arguments. If it answers not_implemented, say that this register's roles are not available here and go on.

Then write a short summary in plain language:
- What the entity is: its name, its legal form (explain the abbreviation), when it was registered or founded, where it is based and what it does. If it is a sub-unit (is_subunit), say so and name parent_id.
- Whether it is trading: if status is not active, lead with that and say what the status means (bankrupt, under liquidation, dissolved, deleted).
- VAT status: whether it is VAT-registered (vat_registered), since when if known, and its VAT number if given.
- Who runs it: the chair and the other current board members, the chief executive or managing director, the owner of a sole proprietorship, and the persons with significant control with their natures of control. Mention former roles only if they matter (a recent change). Give names as registered and no more personal detail than the task needs. Do not infer who may sign alone: repeat the note that says where the signing rule is registered.
- Next filings: the upcoming deadlines in due_date order, with the authority that receives each one and the days until it. Say when a filing is overdue (days_until below 0), and when mandatory is false say that it depends on facts the register cannot see. If the list is empty, say why, from the deadline report's notes.
- Caveats: restate every item of the report's notes, of the deadline report's notes and of the roles report's notes in plain words.

Cite the source and source_url of the data. If a tool result has isError true, its text is a JSON envelope: explain error.message to the user and follow error.hint (for invalid_id or not_found, offer to search by name with search_company); do not retry the same identifier.`, id, country, call)
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
