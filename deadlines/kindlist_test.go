package deadlines_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/companyregistry/registry/deadlines"
)

// TestKindList: the kinds that apply, in the given order, a conditional one
// with its word; a kind that does not apply, or whose duty is unknown, is
// left out.
func TestKindList(t *testing.T) {
	t.Parallel()
	yes := deadlines.KindDuty{Duty: deadlines.DutyYes}
	cond := deadlines.KindDuty{Duty: deadlines.DutyConditional}
	for _, tt := range []struct {
		name string
		ks   []deadlines.FormKind
		want string
	}{
		{"none", nil, ""},
		{"none applies", []deadlines.FormKind{{Kind: deadlines.TaxReturn}, {Kind: deadlines.VATReturn, Duty: deadlines.KindDuty{Duty: deadlines.DutyNo}}}, ""},
		{"mixed", []deadlines.FormKind{
			{Kind: deadlines.GeneralMeeting, Duty: yes},
			{Kind: deadlines.AnnualAccounts, Duty: deadlines.KindDuty{Duty: deadlines.DutyNo}},
			{Kind: deadlines.TaxReturn, Duty: cond},
			{Kind: deadlines.VATReturn, Duty: yes},
		}, "`general_meeting`, `tax_return` (if applicable), `vat_return`"},
	} {
		if diff := cmp.Diff(tt.want, deadlines.KindList("if applicable", tt.ks...)); diff != "" {
			t.Errorf("%s: KindList (-want +got):\n%s", tt.name, diff)
		}
	}
}
