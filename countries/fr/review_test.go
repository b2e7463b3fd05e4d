package fr

import (
	"testing"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/deadlines"
)

// reviewVATDeadline maps the DANONE recording with another legal category
// and head-office département, and returns its vat_return deadline.
func reviewVATDeadline(t *testing.T, code, dep string, today registry.Date) (registry.Deadline, bool) {
	t.Helper()
	u := decodeUnit(t, danoneFile)
	u.NatureJuridique.V = code
	u.Siege.Departement.V = dep
	rep := mapUnit(u, asked(t, "552032534"))
	if rep.VATRegistered == nil || !*rep.VATRegistered {
		t.Fatalf("the recording lists FR27552032534: vat_registered should be true")
	}
	out := deadlines.France(rep, dutiesOf(rep), today)
	for _, d := range out.Deadlines {
		if d.Kind == "vat_return" {
			return d, true
		}
	}
	return registry.Deadline{}, false
}

// TestReview_FRSocieteCivileVATDay: a société civile (SCI 6540, other
// sociétés civiles 6599) that the register lists with an active VAT number
// gets a monthly CA3. Its day is in the column "sociétés autres que les
// sociétés anonymes" of CGI ann. IV art. 39
// (https://legal.tricoteuses.fr/articles/LEGIARTI000006300353, quoted with
// https://lexbase.fr/texte-de-loi/art-39-code-general-des-impots-annexe-iv/L8264I79.html;
// research fr-deadlines.md §3,
// engine rule: "other sociétés (52xx, 53xx …, 54xx, 57xx, 65xx, 51xx,
// 3120): Paris area 19/20/21 by SIREN, elsewhere 21"), not "autres
// redevables" (the 24th, for associations, public bodies and occasional
// taxpayers). SIREN 552032534 starts with 55: the 19th in Paris, the 21st
// elsewhere. The module files both under "other taxpayers": the 24th.
func TestReview_FRSocieteCivileVATDay(t *testing.T) {
	t.Parallel()
	today := registry.NewDate(2026, 3, 2)
	for _, tt := range []struct {
		code, dep string
		wantDay   int
	}{
		{"6540", "69", 21}, // SCI, outside the Paris area
		{"6540", "75", 19}, // SCI in Paris, SIREN 55…
		{"6599", "69", 21}, // another société civile (its own duties not modelled)
		{"6599", "92", 19}, // the same in Hauts-de-Seine, SIREN 55…
		{"6551", "69", 21}, // a civil cooperative company (65xx)
	} {
		d, ok := reviewVATDeadline(t, tt.code, tt.dep, today)
		if !ok {
			t.Errorf("%s in %s: no vat_return though the register lists a VAT number", tt.code, tt.dep)
			continue
		}
		if d.StatutoryDate.Day != tt.wantDay {
			t.Errorf("%s in %s: CA3 for %s due on day %d (%s), want day %d (CGI ann. IV art. 39, sociétés autres que SA)",
				tt.code, tt.dep, *d.PeriodLabel, d.StatutoryDate.Day, d.StatutoryDate, tt.wantDay)
		}
	}
}
