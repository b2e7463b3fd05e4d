package catalog

import (
	"bytes"
	"fmt"
	"text/template"
)

// Resource describes the MCP rules resources: the template and one
// resource per country.
type Resource struct {
	Name, Title, MIMEType string
	URITemplate           string
	// Prefix is URITemplate up to {country}.
	Prefix string
	// Description is that of each country's resource; TemplateDescription
	// that of the template.
	Description, TemplateDescription string
}

// RulesResource returns the MCP rules resource.
func RulesResource() Resource {
	const desc = "The country's rules as one Markdown document: identifier format and checksum, legal " +
		"forms, how statuses are mapped, and the statutory deadline rules with their legal sources."
	return Resource{Name: "rules", Title: "Registry rules of a country", MIMEType: "text/markdown",
		URITemplate: RulesURITemplate, Prefix: "registry://rules/",
		Description:         desc,
		TemplateDescription: desc + " {country} is an ISO 3166-1 alpha-2 code from list_countries (GB, never UK)."}
}

// Prompt describes an MCP prompt.
type Prompt struct {
	Name, Title, Description string
	Args                     []PromptArg
}

// PromptArg is one argument of a prompt.
type PromptArg struct {
	Name, Title, Description string
	Required                 bool
}

// ExplainCompany returns the prompt that asks for a plain-language summary
// of one company.
func ExplainCompany() Prompt {
	return Prompt{Name: PromptExplainCompany, Title: "Explain a company",
		Description: "Explain one registered company for a non-expert: what it is, whether it trades, its VAT " +
			"status, who runs it, its next filings and the caveats, using lookup_company, company_deadlines and " +
			"company_roles.",
		Args: []PromptArg{
			{Name: "id", Title: "Identifier", Required: true,
				Description: "The company's national identifier, e.g. 923609016 (NO) or 00445790 (GB)."},
			{Name: "country", Title: "Country",
				Description: "ISO 3166-1 alpha-2 country code from list_countries; default NO. The United Kingdom is GB."},
		}}
}

// ExplainCompanyText returns the message of the explain_company prompt for
// the company id in country (canonical), whose tool arguments are call
// (JSON).
func ExplainCompanyText(id, country, call string) (string, error) {
	t, err := template.ParseFS(templateFiles, "templates/explain_company.tmpl")
	if err != nil {
		return "", fmt.Errorf("catalog: template explain_company: %w", err)
	}
	var b bytes.Buffer
	if err := t.Execute(&b, struct{ ID, Country, Call string }{id, country, call}); err != nil {
		return "", fmt.Errorf("catalog: explain_company: %w", err)
	}
	return b.String(), nil
}
