package catalog

import (
	"embed"
	"fmt"

	registry "github.com/companyregistry/registry"
)

// The tags of /openapi.json: one per resource of the service.
const (
	TagCountries  = "countries"
	TagCompanies  = "companies"
	TagDeadlines  = "deadlines"
	TagRoles      = "roles"
	TagValidation = "validation"
	TagService    = "service"
	// TagWatches and TagChanges are change monitoring's, in the document
	// only when the service has it (see [ChangeTags]).
	TagWatches = "watches"
	TagChanges = "changes"
)

// Tag is one tag of /openapi.json.
type Tag struct {
	Name, Description string
}

// Tags returns the tags of /openapi.json in the order of the reference.
func Tags() []Tag {
	return []Tag{
		{TagCountries, "The countries and registers that can answer now; use their codes in every other call."},
		{TagCompanies, "One company's full report by its national identifier, and name searches that give thin hits."},
		{TagDeadlines, "The next statutory filing deadlines of companies, as JSON, in batches and as a calendar feed."},
		{TagRoles, "Who runs, signs for and controls a company: board, management, owners, beneficial owners."},
		{TagValidation, "Identifier checks of format and checksum, without calling a register."},
		{TagService, "Liveness and the texts that describe this service: llms.txt, server.json and this document."},
	}
}

// ChangeTags returns the tags of change monitoring's operations, which
// follow [Tags] in a document that has them.
func ChangeTags() []Tag {
	return []Tag{
		{TagWatches, "Your watch lists (behind an API token): the companies whose changes are recorded for you and sent to " +
			"your endpoint as signed webhooks, their deliveries and a test event."},
		{TagChanges, "What changed in companies: your change feed (behind an API token), and any company's recorded changes."},
	}
}

// The examples of /openapi.json are answers of the real REST handler over
// the real country modules and recorded register answers (restserver's
// TestOpenAPIExamplesAreRealAnswers records them and fails when one no
// longer matches): never written by hand.
//
//go:embed examples
var examples embed.FS

// ExampleFile is the name, in the embedded examples, of the 200 example of
// the operation: its name and the extension of its media type.
func (o Operation) ExampleFile() string {
	ext := ".json"
	switch o.MediaType() {
	case "text/plain":
		ext = ".txt"
	case "text/calendar":
		ext = ".ics"
	}
	return "examples/" + o.Name + ext
}

// Example returns the 200 example of the operation: the answer to its
// ExamplePath, or an error when it has none.
func (o Operation) Example() ([]byte, error) {
	if o.ExamplePath == "" {
		return nil, fmt.Errorf("catalog: %s has no example request", o.Name)
	}
	return examples.ReadFile(o.ExampleFile())
}

// WebhookExampleFile is the name, in the embedded examples, of the body of
// a webhook: the one the example deployment's dispatcher sent.
const WebhookExampleFile = "examples/webhookEvent.json"

// WebhookExample returns the recorded body of a webhook.
func WebhookExample() ([]byte, error) { return examples.ReadFile(WebhookExampleFile) }

// ErrorExampleFile is the name, in the embedded examples, of the example
// envelope of error code c.
func ErrorExampleFile(c registry.Code) string { return "examples/error_" + string(c) + ".json" }

// ErrorExample returns the example envelope of error code c, a recorded
// answer of the service.
func ErrorExample(c registry.Code) ([]byte, error) {
	return examples.ReadFile(ErrorExampleFile(c))
}

// ErrorCodes returns every error code an operation of the catalogue
// declares, change monitoring's included, each once, in the order of the
// reference.
func ErrorCodes() []registry.Code {
	var out []registry.Code
	seen := map[registry.Code]bool{}
	for _, o := range append(Operations(), ChangeOperations()...) {
		for _, c := range o.Errors {
			if !seen[c] {
				seen[c] = true
				out = append(out, c)
			}
		}
	}
	return out
}
