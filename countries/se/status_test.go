package se

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/countries/se/internal/bulkfile"
)

// TestStatusPrecedence: the status from a deregistration date and the
// ongoing procedures (pagaendeAvvecklingsEllerOmstruktureringsforfarande),
// by the precedence written from Bolagsverket's code lists (registry-mcp
// D-035, as the research gives it): deregistered is dissolved; KK
// bankrupt; LI under liquidation; FUOL and DEOL (being absorbed or
// divided) "distress or liquidation", which is under_liquidation here
// (VERIFY fallback: the interface has no distress status); FR, AC and RES
// active with a note; FUOT, DEOT, OM and GROM change nothing.
func TestStatusPrecedence(t *testing.T) {
	t.Parallel()
	proc := func(codes ...string) []bulkfile.Procedure {
		var out []bulkfile.Procedure
		for _, c := range codes {
			out = append(out, bulkfile.Procedure{Code: c, From: "2026-03-02"})
		}
		return out
	}
	for _, tt := range []struct {
		name   string
		dereg  string
		procs  []bulkfile.Procedure
		want   registry.Status
		detail string
	}{
		{"deregistered, with a merger", "2026-05-04", proc("FUOL"), registry.StatusDissolved, "Deregistered (avregistrerad) on 2026-05-04"},
		{"bankrupt before a merger", "", proc("FUOL", "KK"), registry.StatusBankrupt, "Bankruptcy (konkurs, KK) since 2026-03-02"},
		{"liquidation", "", proc("LI"), registry.StatusUnderLiquidation, "Liquidation (likvidation, LI) since 2026-03-02"},
		{"being absorbed", "", proc("FUOL"), registry.StatusUnderLiquidation,
			"Being absorbed by another organisation in a merger (fusion, FUOL) since 2026-03-02; under_liquidation as the nearest status (VERIFY)"},
		{"being divided", "", proc("deol"), registry.StatusUnderLiquidation,
			"Being divided in a division (delning, DEOL) since 2026-03-02; under_liquidation as the nearest status (VERIFY)"},
		{"being absorbed under reconstruction", "", proc("FR", "FUOL"), registry.StatusUnderLiquidation,
			"Being absorbed by another organisation in a merger (fusion, FUOL) since 2026-03-02; under_liquidation as the nearest status (VERIFY)"},
		{"reconstruction", "", proc("FR"), registry.StatusActive, "Active, under reconstruction or composition (FR) since 2026-03-02"},
		{"acquiring side and conversion", "", proc("FUOT", "DEOT", "OM", "GROM"), registry.StatusActive,
			"Registered, no deregistration and no winding-up procedure"},
		{"nothing", "", nil, registry.StatusActive, "Registered, no deregistration and no winding-up procedure"},
	} {
		got := statusOf(tt.dereg, "", "", tt.procs)
		if diff := cmp.Diff([2]string{string(tt.want), tt.detail}, [2]string{string(got.status), got.detail}); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.name, diff)
		}
		if got.status == registry.StatusUnderLiquidation && strings.Contains(tt.detail, "Being") &&
			(len(got.notes) != 1 || !strings.Contains(got.notes[0], "without a liquidation") || !strings.Contains(got.notes[0], "VERIFY")) {
			t.Errorf("%s: notes %q", tt.name, got.notes)
		}
	}
}

// TestDeregistrationReasonWithoutDate: the research keys the dissolved
// status on a deregistration date (nordic.md's precedence, rule 1: "If
// avregistreradOrganisation has a date, the company is dissolved / struck
// off. The reason is avregistreringsorsak"). A reason with no date (none,
// or a placeholder without a digit but 0) leaves the status to the
// procedures, and a note names the reason so that a reader is not told
// "active" in silence.
func TestDeregistrationReasonWithoutDate(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name, dereg, reason, text string
		procs                     []bulkfile.Procedure
		want                      registry.Status
		notes                     []string
	}{
		{"reason, no date", "", "KKAV", "Konkurs", nil, registry.StatusActive, []string{
			"The register names a deregistration reason, Konkurs (KKAV), but no deregistration date; the status follows " +
				"the date and the ongoing procedures, so it is active. Check the organisation with Bolagsverket before relying on it."}},
		{"reason, placeholder date, bankruptcy", "0000-00-00", "KKAV", "", []bulkfile.Procedure{{Code: "KK", From: "2026-03-02"}},
			registry.StatusBankrupt, []string{
				"The register shows bankruptcy proceedings (konkurs) since 2026-03-02.",
				"The register names a deregistration reason, KKAV, but no deregistration date; the status follows the date " +
					"and the ongoing procedures, so it is bankrupt. Check the organisation with Bolagsverket before relying on it."}},
		{"reason and date", "2026-05-04", "LIAV", "Likvidation", nil, registry.StatusDissolved, []string{
			"The organisation is deregistered (avregistrerad) since 2026-05-04."}},
		{"no reason, no date", "", "", "", nil, registry.StatusActive, nil},
		{"a reason's text without its code", "", "", "Konkurs", nil, registry.StatusActive, []string{
			"The register names a deregistration reason, Konkurs, but no deregistration date; the status follows " +
				"the date and the ongoing procedures, so it is active. Check the organisation with Bolagsverket before relying on it."}},
	} {
		got := statusOf(tt.dereg, tt.reason, tt.text, tt.procs)
		if diff := cmp.Diff(tt.want, got.status); diff != "" {
			t.Errorf("%s: status (-want +got):\n%s", tt.name, diff)
		}
		if diff := cmp.Diff(tt.notes, got.notes); diff != "" {
			t.Errorf("%s: notes (-want +got):\n%s", tt.name, diff)
		}
	}
}
