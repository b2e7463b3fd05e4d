package restserver_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	goical "github.com/emersion/go-ical"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/ical"
	"github.com/companyregistry/registry/restserver"
)

func TestDeadlinesICS(t *testing.T) {
	t.Parallel()
	h := newHarness(t, restserver.WithRateLimit(0))
	res := h.get(t, "/v1/ZZ/company/123%20456/deadlines.ics?today=2026-01-15")
	if res.status != http.StatusOK {
		t.Fatalf("status %d\n%s", res.status, res.body)
	}
	for k, want := range map[string]string{"Content-Type": "text/calendar; charset=utf-8", "Cache-Control": "no-cache",
		"Content-Disposition": `inline; filename="ZZ-123456-deadlines.ics"`} {
		if got := res.header.Get(k); got != want {
			t.Errorf("%s %q, want %q", k, got, want)
		}
	}
	golden(t, "ics/zz_123456_2026-01-15.ics", res.body)
}

// TestDeadlinesICSErrors: a failure is the JSON envelope of the JSON route,
// with its status.
func TestDeadlinesICSErrors(t *testing.T) {
	t.Parallel()
	h := newHarness(t, restserver.WithRateLimit(0))
	for _, tt := range []struct {
		path   string
		status int
		code   registry.Code
	}{
		{"/v1/ZZ/company/12345/deadlines.ics", 400, registry.CodeInvalidID},
		{"/v1/ZZ/company/000000/deadlines.ics", 404, registry.CodeNotFound},
		{"/v1/ZZ/company/123456/deadlines.ics?today=2026-02-30", 400, registry.CodeBadRequest},
		{"/v1/ZZ/company/123456/deadlines.ics?today=%zz", 400, registry.CodeBadRequest},
		{"/v1/XX/company/123456/deadlines.ics", 404, registry.CodeUnsupportedCountry},
		{"/v1/ZY/company/123456/deadlines.ics", 502, registry.CodeUpstreamError},
	} {
		res := h.get(t, tt.path)
		if res.status != tt.status || res.header.Get("Content-Type") != "application/json" {
			t.Errorf("%s: status %d %q, want %d and JSON", tt.path, res.status, res.header.Get("Content-Type"), tt.status)
			continue
		}
		if e := errorOf(t, res.body); e.Code != tt.code || e.Hint == "" {
			t.Errorf("%s: code %q, want %q with a hint", tt.path, e.Code, tt.code)
		}
		if single := h.get(t, strings.Replace(tt.path, "deadlines.ics", "deadlines", 1)); !bytes.Equal(single.body, res.body) {
			t.Errorf("%s: the envelope differs from the JSON route's:\n%s\n%s", tt.path, res.body, single.body)
		}
	}
}

// TestDeadlinesICSMatchesJSON runs the real Norwegian module behind a
// faked register, parses the calendar with a real iCalendar parser and
// compares it with the JSON report of the same call: same count, same
// dates, the UIDs the ical package promises, identical bytes on a second
// call.
func TestDeadlinesICSMatchesJSON(t *testing.T) {
	t.Parallel()
	h := newE2E(t, "")
	const path = "/v1/NO/company/923609016/deadlines"
	for _, today := range []string{"?today=2026-01-15", "?today=2026-11-24", ""} {
		js := h.get(t, path+today)
		if js.status != 200 {
			t.Fatalf("JSON route: %d\n%s", js.status, js.body)
		}
		var rep registry.DeadlineReport
		if err := json.Unmarshal(js.body, &rep); err != nil {
			t.Fatal(err)
		}
		first, again := h.get(t, path+".ics"+today), h.get(t, path+".ics"+today)
		if first.status != 200 || !bytes.Equal(first.body, again.body) {
			t.Fatalf("%s: status %d; two calls identical: %v", today, first.status, bytes.Equal(first.body, again.body))
		}
		cal, err := goical.NewDecoder(bytes.NewReader(first.body)).Decode()
		if err != nil {
			t.Fatalf("%s: the parser rejects the calendar: %v", today, err)
		}
		if name, _ := cal.Props.Text("X-WR-CALNAME"); !strings.Contains(name, *rep.CompanyName) {
			t.Errorf("X-WR-CALNAME %q lacks %q", name, *rep.CompanyName)
		}
		events := cal.Events()
		if len(events) != len(rep.Deadlines) || len(events) == 0 {
			t.Fatalf("%s: %d events, %d deadlines", today, len(events), len(rep.Deadlines))
		}
		for i, ev := range events {
			d := rep.Deadlines[i]
			start, err := ev.DateTimeStart(nil)
			if err != nil {
				t.Fatal(err)
			}
			if registry.DateOf(start) != d.DueDate {
				t.Errorf("%s: event %d starts %s, the JSON due_date is %s", today, i, registry.DateOf(start), d.DueDate)
			}
			if uid, _ := ev.Props.Text(goical.PropUID); uid != ical.UID(rep.Country, rep.CompanyID, d) {
				t.Errorf("%s: event %d UID %q", today, i, uid)
			}
			desc, _ := ev.Props.Text(goical.PropDescription)
			if !strings.Contains(desc, d.AppliesBecause) || d.SourceURL == nil || !strings.Contains(desc, *d.SourceURL) {
				t.Errorf("%s: event %d description lacks the legal basis or source:\n%s", today, i, desc)
			}
		}
	}
}
