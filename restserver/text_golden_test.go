package restserver_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/companyregistry/registry/restserver"
)

// TestTextGoldens pins /llms.txt and /llms-full.txt of the fake registry.
func TestTextGoldens(t *testing.T) {
	t.Parallel()
	h := newHarness(t, restserver.WithPublicURL("https://registry.example.com"))
	for _, name := range []string{"llms.txt", "llms-full.txt"} {
		res := h.get(t, "/"+name)
		if res.status != 200 {
			t.Fatalf("/%s: %d", name, res.status)
		}
		golden(t, "text/"+name+".golden", res.body)
	}
	full := string(h.get(t, "/llms-full.txt").body)
	for _, want := range []string{"### POST /v1/{country}/deadlines:batch", "### GET /v1/{country}/company/{id}/deadlines.ics",
		"### DeadlinesBatchResponse", "- Batch: 1 to 500 ids"} {
		if !strings.Contains(full, want) {
			t.Errorf("/llms-full.txt lacks %q", want)
		}
	}
	if short := string(h.get(t, "/llms.txt").body); !strings.Contains(short, "deadlines:batch") || !strings.Contains(short, "deadlines.ics") {
		t.Error("/llms.txt names neither the batch nor the calendar feed")
	}
}

// TestOpenAPIBatchAndCalendar: the batch is a POST with a JSON body, the
// feed a GET answering text/calendar.
func TestOpenAPIBatchAndCalendar(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	var doc struct {
		Paths map[string]map[string]struct {
			RequestBody *struct {
				Required bool
				Content  map[string]json.RawMessage
			} `json:"requestBody"`
			Responses map[string]struct {
				Content map[string]json.RawMessage
			}
		}
	}
	if err := json.Unmarshal(h.get(t, "/openapi.json").body, &doc); err != nil {
		t.Fatal(err)
	}
	batch, ok := doc.Paths["/v1/{country}/deadlines:batch"]["post"]
	if !ok || batch.RequestBody == nil || !batch.RequestBody.Required || batch.RequestBody.Content["application/json"] == nil {
		t.Errorf("the batch is not a POST with a required JSON body: %+v", doc.Paths["/v1/{country}/deadlines:batch"])
	}
	for _, status := range []string{"200", "400", "404", "429"} {
		if _, ok := batch.Responses[status]; !ok {
			t.Errorf("the batch documents no %s", status)
		}
	}
	ics := doc.Paths["/v1/{country}/company/{id}/deadlines.ics"]["get"]
	if ics.Responses["200"].Content["text/calendar"] == nil || ics.Responses["404"].Content["application/json"] == nil {
		t.Errorf("the feed's responses: %+v", ics.Responses)
	}
}
