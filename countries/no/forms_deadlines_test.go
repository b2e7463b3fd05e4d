package no

import (
	"strings"
	"testing"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/countrykit"
	"github.com/companyregistry/registry/deadlines"
)

// TestEveryFormIsKnownToDeadlines: every organisation form in this module's
// table, mapped as a live VAT-registered main unit, is recognised by package
// deadlines (which reads the form's label from the report rather than keeping
// its own list of codes): it gets the VAT return, never the
// "not one Enhetsregisteret publishes" note. Sub-unit forms get the sub-unit
// note instead.
func TestEveryFormIsKnownToDeadlines(t *testing.T) {
	t.Parallel()
	for _, f := range legalForms() {
		u := unit{
			Organisasjonsnummer: equinorID,
			Navn:                "EKSEMPEL " + f.Code,
			Organisasjonsform:   &codeText{Kode: f.Code},
			RegistrertIMva:      countrykit.Ptr(true),
		}
		rep := mapUnit(&u, equinorID, false)
		rep.Status = registry.StatusActive
		out := deadlines.Norway(rep, registry.NewDate(2026, 3, 1))
		notes := strings.Join(out.Notes, " ")
		if strings.Contains(notes, "not one Enhetsregisteret publishes") {
			t.Errorf("%s: package deadlines does not know the form: %q", f.Code, notes)
			continue
		}
		if f.Code == "BEDR" || f.Code == "AAFY" {
			if !strings.Contains(notes, "sub-unit") {
				t.Errorf("%s: no sub-unit note: %q", f.Code, notes)
			}
			continue
		}
		found := false
		for _, d := range out.Deadlines {
			found = found || d.Kind == "vat_return"
		}
		if !found {
			t.Errorf("%s: a VAT-registered unit has no vat_return: %q", f.Code, notes)
		}
	}
}
