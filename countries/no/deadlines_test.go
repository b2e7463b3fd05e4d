package no

import (
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/jarcoal/httpmock"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/internal/moduletest"
)

// The reports this module produces carry what package deadlines reads: an
// active VAT-registered ASA gets deadlines, a bankrupt AS and a sub-unit get
// none and a note (for the sub-unit, naming parent_id). Checked through the
// Registry with recordings.
func TestDeadlinesFromRecordings(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		id        string
		file      string
		subunit   bool
		wantKinds []string // kinds that must be present; nil means no deadlines
		wantNote  string
	}{
		{"Equinor ASA", equinorID, "enhet_923609016_equinor_asa_2026-08.json", false,
			[]string{"vat_return", "payroll_report", "annual_accounts", "tax_return"}, ""},
		{"bankrupt AS", "121212129", "enhet_AS_konkurs_SYNTHETIC.json", false, nil, "bankrupt"},
		{"sub-unit", digdirSubID, "underenhet_924203617_digdir_avd_bronnoysund_bedr_2025-02.json", true, nil, "991825827"},
		{"deleted", "821227062", "enhet_deleted_821227062_fylk_200_2025-02.json", false, nil, "deleted"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			mt := httpmock.NewMockTransport()
			body := moduletest.JSONResponder(http.StatusOK, recording(t, tt.file))
			if tt.subunit {
				mt.RegisterResponder(http.MethodGet, testBase+"/enheter/"+tt.id, httpmock.NewBytesResponder(http.StatusNotFound, nil))
				mt.RegisterResponder(http.MethodGet, testBase+"/underenheter/"+tt.id, body)
			} else {
				mt.RegisterResponder(http.MethodGet, testBase+"/enheter/"+tt.id, body)
			}
			reg := newTestRegistry(t, mt)
			out, err := reg.Deadlines(t.Context(), "NO", tt.id, registry.NewDate(2026, 1, 15))
			if err != nil {
				t.Fatal(err)
			}
			if out.CompanyID != tt.id || out.Today != registry.NewDate(2026, 1, 15) {
				t.Errorf("company_id, today = %s, %s", out.CompanyID, out.Today)
			}
			var kinds []string
			for _, d := range out.Deadlines {
				kinds = append(kinds, string(d.Kind))
			}
			if tt.wantKinds == nil && len(kinds) > 0 {
				t.Errorf("deadlines = %v, want none", kinds)
			}
			for _, k := range tt.wantKinds {
				if !slices.Contains(kinds, k) {
					t.Errorf("deadlines = %v, want %s among them", kinds, k)
				}
			}
			if tt.wantNote != "" && !slices.ContainsFunc(out.Notes, func(n string) bool { return strings.Contains(n, tt.wantNote) }) {
				t.Errorf("notes = %q, want one mentioning %q", out.Notes, tt.wantNote)
			}
		})
	}
}
