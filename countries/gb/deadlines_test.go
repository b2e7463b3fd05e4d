package gb

import (
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/jarcoal/httpmock"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/internal/moduletest"
)

// lookupRecording looks a recording up through the module.
func lookupRecording(t *testing.T, file, id string) *registry.CompanyReport {
	t.Helper()
	mt := httpmock.NewMockTransport()
	mt.RegisterResponder(http.MethodGet, testBase+"/company/"+id, moduletest.JSONResponder(http.StatusOK, recording(t, file)))
	rep, err := newTestCountry(t, mt).Lookup(t.Context(), id)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// The dissolved company has no deadlines, and a note says why.
func TestDeadlinesDissolvedCompanyHasNone(t *testing.T) {
	t.Parallel()
	rep := lookupRecording(t, "company_profile_dissolved_private-unlimited-nsc_00000006_2018.json", "00000006")
	c := newTestCountry(t, httpmock.NewMockTransport())
	got, err := c.Deadlines(rep, registry.NewDate(2018, 1, 15))
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Deadlines) != 0 {
		t.Errorf("deadlines = %+v, want none", got.Deadlines)
	}
	if len(got.Notes) == 0 || !strings.Contains(got.Notes[0], "dissolved") {
		t.Errorf("notes = %q, want one saying the company is dissolved", got.Notes)
	}
	if got.Country != "GB" || got.Registry != "companieshouse" || got.CompanyID != "00000006" {
		t.Errorf("report for %s/%s/%s", got.Country, got.Registry, got.CompanyID)
	}
}

// The company whose first accounts are pending (incorporated 2019-10-24,
// first period ending 2020-10-31, never filed) gets its first accounts date:
// the register publishes 2021-07-24, a Saturday, which stays as it is; and
// when the register's due date is missing, the date computed from the
// mapped report (21 months after incorporation, s.442(3)) is the same day.
func TestDeadlinesFirstAccountsPending(t *testing.T) {
	t.Parallel()
	rep := lookupRecording(t, "company_profile_active_ltd_first-accounts-pending_12279804_2020.json", "12279804")
	c := newTestCountry(t, httpmock.NewMockTransport())
	today := registry.NewDate(2020, 11, 1)
	want := registry.NewDate(2021, 7, 24)

	published, err := c.Deadlines(rep, today)
	if err != nil {
		t.Fatal(err)
	}
	acc := findDeadline(t, published, "annual_accounts")
	if acc.DueDate != want || acc.StatutoryDate != want || acc.RolledForward {
		t.Errorf("published first accounts due %s (statutory %s, rolled %v), want %s not rolled", acc.DueDate, acc.StatutoryDate, acc.RolledForward, want)
	}
	if diff := cmp.Diff(registry.NewDate(2020, 10, 31).Ptr(), acc.PeriodEnd); diff != "" {
		t.Errorf("period end (-want +got):\n%s", diff)
	}
	cs := findDeadline(t, published, "confirmation_statement")
	if cs.DueDate != registry.NewDate(2020, 11, 6) {
		t.Errorf("confirmation statement due %s, want 2020-11-06", cs.DueDate)
	}

	// Without the register's due dates (as in a Streaming API copy), the
	// engine computes them from the fields this module filled.
	computedRep := *rep
	computedRep.PublishedDeadlines = nil
	computed, err := c.Deadlines(&computedRep, today)
	if err != nil {
		t.Fatal(err)
	}
	acc = findDeadline(t, computed, "annual_accounts")
	if acc.DueDate != want {
		t.Errorf("computed first accounts due %s, want %s; applies_because %q", acc.DueDate, want, acc.AppliesBecause)
	}
	if cs := findDeadline(t, computed, "confirmation_statement"); cs.DueDate != registry.NewDate(2020, 11, 6) {
		t.Errorf("computed confirmation statement due %s, want 2020-11-06", cs.DueDate)
	}
}

// Deadlines through the Registry reuse the lookup and give the register's
// published dates for an active company.
func TestDeadlinesThroughRegistry(t *testing.T) {
	t.Parallel()
	mt := httpmock.NewMockTransport()
	mt.RegisterResponder(http.MethodGet, testBase+"/company/08957400",
		moduletest.JSONResponder(http.StatusOK, recording(t, "company_profile_active_ltd_08957400_2024.json")))
	reg := newTestRegistry(t, newTestCountry(t, mt), nil)
	got, err := reg.Deadlines(t.Context(), "GB", "8957400", registry.NewDate(2024, 1, 15))
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, d := range got.Deadlines {
		kinds = append(kinds, string(d.Kind)+" "+d.DueDate.String())
	}
	want := []string{"confirmation_statement 2024-04-08", "annual_accounts 2024-12-31"}
	if diff := cmp.Diff(want, kinds); diff != "" {
		t.Errorf("deadlines (-want +got):\n%s", diff)
	}
	if got.CompanyName == nil || *got.CompanyName != "CANDOUR GROUP LIMITED" {
		t.Errorf("company name = %v", got.CompanyName)
	}
}

func findDeadline(t *testing.T, r *registry.DeadlineReport, kind string) registry.Deadline {
	t.Helper()
	for _, d := range r.Deadlines {
		if string(d.Kind) == kind {
			return d
		}
	}
	t.Fatalf("no %s deadline in %+v (notes %q)", kind, r.Deadlines, r.Notes)
	return registry.Deadline{}
}
