package catalog

import (
	"bytes"
	"embed"
	"fmt"
	"strings"
	"text/template"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/changes"
)

//go:embed templates/*.tmpl
var templateFiles embed.FS

// The texts [Render] knows.
const (
	LLMSTxt     = "llms.txt"
	LLMSFullTxt = "llms-full.txt"
)

// TextInputs is what the texts say beyond the catalogue: the deployment.
type TextInputs struct {
	// BaseURL starts every link (restserver passes a placeholder that it
	// replaces per request).
	BaseURL string
	// MCPURL is the advertised MCP endpoint, "" for none.
	MCPURL  string
	Version string
	// Countries are the modules, in order; Rules their rules documents
	// (Markdown), by country code.
	Countries []registry.CountryInfo
	Rules     map[string]string
	// RateLimit is the requests per minute of one client, 0 for none.
	RateLimit int
	// Shared: the rate limit is a shared Limiter that MCP tool calls may
	// draw from too.
	Shared bool
	// Changes: change monitoring is served (watches, the feed, a
	// company's changes; see [ChangeOperations]).
	Changes bool
	// MaxHeaderBytes is the most bytes of request line and headers a
	// request may have (refused with 431 and the envelope), 0 for no bound
	// of the service's own.
	MaxHeaderBytes int
}

// textData is the data of the templates: the catalogue and the inputs.
type textData struct {
	TextInputs
	Operations []Operation // the reference's: no text resources
	Tools      []Operation
	Documents  []Document
	Codes      []codeRow
	RulesDocs  []string // demoted, in the order of Countries

	DefaultLimit, MaxLimit, MaxQuery int
	MaxBatchIDs, MaxBatchBodyBytes   int
	MaxWatchIDs                      int
	RulesURI, Prompt                 string
}

type codeRow struct {
	Code                   registry.Code
	Status                 int
	Condition, DefaultHint string
}

// Op returns the operation called name; the template fails on an unknown
// one.
func (d textData) Op(name string) (Operation, error) {
	if o, ok := Lookup(name); ok {
		return o, nil
	}
	return Operation{}, fmt.Errorf("catalog: no operation %q", name)
}

// CountryCodes returns the country codes, in order, comma-separated.
func (d textData) CountryCodes() string {
	codes := make([]string, 0, len(d.Countries))
	for _, c := range d.Countries {
		codes = append(codes, c.Country)
	}
	return strings.Join(codes, ", ")
}

// ToolNames returns the tools' names, comma-separated.
func (d textData) ToolNames() string {
	names := make([]string, 0, len(d.Tools))
	for _, o := range d.Tools {
		names = append(names, o.Tool.Name)
	}
	return strings.Join(names, ", ")
}

// Example returns a country for the example lookup: the first that needs
// no credential, else the first; nil without countries.
func (d textData) Example() *registry.CountryInfo {
	for i, c := range d.Countries {
		if !c.RequiresAPIKey && !c.IsStub {
			return &d.Countries[i]
		}
	}
	if len(d.Countries) > 0 {
		return &d.Countries[0]
	}
	return nil
}

// HeaderBound is MaxHeaderBytes as people read it: "16 KiB" for a whole
// number of KiB, else "1000 bytes".
func (d TextInputs) HeaderBound() string {
	if d.MaxHeaderBytes%1024 == 0 {
		return fmt.Sprintf("%d KiB", d.MaxHeaderBytes/1024)
	}
	return fmt.Sprintf("%d bytes", d.MaxHeaderBytes)
}

// PerToken says how often the rate limit's bucket gains a token.
func (d textData) PerToken() string {
	if d.RateLimit == 60 {
		return "second"
	}
	if 60%d.RateLimit == 0 {
		return fmt.Sprintf("%d seconds", 60/d.RateLimit)
	}
	return fmt.Sprintf("%.2f seconds", 60/float64(d.RateLimit))
}

func errorList(codes []registry.Code) string {
	parts := make([]string, 0, len(codes))
	for _, c := range codes {
		parts = append(parts, fmt.Sprintf("%s (%d)", c, c.HTTPStatus()))
	}
	return strings.Join(parts, ", ")
}

// Render executes the text template called name ([LLMSTxt] or
// [LLMSFullTxt]) with the catalogue and in.
func Render(name string, in TextInputs) (string, error) {
	t, err := template.New(name).Funcs(template.FuncMap{"errors": errorList}).
		ParseFS(templateFiles, "templates/"+name+".tmpl")
	if err != nil {
		return "", fmt.Errorf("catalog: template %s: %w", name, err)
	}
	tools := Tools()
	if in.Changes {
		tools = append(tools, ChangeTools()...)
	}
	d := textData{TextInputs: in, Tools: tools,
		DefaultLimit: registry.DefaultSearchLimit, MaxLimit: registry.MaxSearchLimit, MaxQuery: registry.MaxQueryLength,
		MaxBatchIDs: MaxBatchIDs, MaxBatchBodyBytes: MaxBatchBodyBytes, MaxWatchIDs: changes.MaxIDsPerWatch,
		RulesURI: RulesURITemplate, Prompt: PromptExplainCompany}
	all := Operations()
	if in.Changes {
		all = append(all, ChangeOperations()...)
	}
	for _, o := range all {
		if !o.Resource {
			d.Operations = append(d.Operations, o)
		}
	}
	if name == LLMSFullTxt {
		if d.Documents, err = Documents(in.Changes); err != nil {
			return "", err
		}
		for _, c := range registry.Codes() {
			d.Codes = append(d.Codes, codeRow{c, c.HTTPStatus(), CodeCondition(c), c.DefaultHint()})
		}
		for _, c := range in.Countries {
			rules, ok := in.Rules[c.Country]
			if !ok {
				return "", fmt.Errorf("catalog: no rules of %s", c.Country)
			}
			d.RulesDocs = append(d.RulesDocs, demoteHeadings(strings.TrimSpace(rules), 2))
		}
	}
	var b bytes.Buffer
	if err := t.ExecuteTemplate(&b, name+".tmpl", d); err != nil {
		return "", fmt.Errorf("catalog: %s: %w", name, err)
	}
	if name == LLMSFullTxt {
		return strings.TrimRight(b.String(), "\n") + "\n", nil
	}
	return b.String(), nil
}

// demoteHeadings adds levels to every Markdown ATX heading outside fenced
// code blocks, so an embedded document nests under the file's headings.
func demoteHeadings(doc string, levels int) string {
	var b strings.Builder
	fenced := false
	prefix := strings.Repeat("#", levels)
	for i, line := range strings.Split(doc, "\n") {
		if i > 0 {
			b.WriteByte('\n')
		}
		if strings.HasPrefix(line, "```") || strings.HasPrefix(line, "~~~") {
			fenced = !fenced
		}
		if !fenced && strings.HasPrefix(line, "#") {
			b.WriteString(prefix)
		}
		b.WriteString(line)
	}
	return b.String()
}
