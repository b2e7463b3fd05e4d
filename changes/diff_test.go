package changes_test

import (
	"encoding/json"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/changes"
	"github.com/companyregistry/registry/countrykit"
)

var now = time.Date(2026, 9, 1, 12, 0, 0, 0, time.UTC)

// wire is a change as the feed shows it, for comparing.
type wire struct {
	Kind     changes.Kind
	Name     string
	Old, New string
	Source   string
}

func wires(cs []changes.Change) []wire {
	out := []wire{}
	for _, c := range cs {
		w := wire{Kind: c.Kind, Old: string(c.Old), New: string(c.New)}
		if c.CompanyName != nil {
			w.Name = *c.CompanyName
		}
		if c.SourceURL != nil {
			w.Source = *c.SourceURL
		}
		out = append(out, w)
	}
	return out
}

func snapshotOf(t *testing.T, r *registry.CompanyReport, roles *registry.RolesReport) changes.Snapshot {
	t.Helper()
	s := changes.Snapshot{Country: "NO", CompanyID: "923609016", TakenAt: now}
	if r != nil {
		b, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		s.Report = b
	}
	if roles != nil {
		b, err := json.Marshal(roles)
		if err != nil {
			t.Fatal(err)
		}
		s.Roles = b
	}
	return s
}

// baseReport is an active Norwegian AS with both addresses and a VAT
// registration.
func baseReport() *registry.CompanyReport {
	r := countrykit.NewReport("NO", "brreg", "923609016", "EKSEMPEL AS")
	r.Status = registry.StatusActive
	r.StatusDetail = countrykit.Ptr("Active.")
	r.LegalFormCode, r.LegalForm, r.LegalFormLocal = countrykit.Ptr("AS"), countrykit.Ptr("Private limited company"), countrykit.Ptr("Aksjeselskap")
	r.VATRegistered, r.VATNumber = countrykit.Ptr(true), countrykit.Ptr("NO923609016MVA")
	r.VATRegisteredAt = registry.NewDate(2001, 1, 1).Ptr()
	r.BusinessAddress = &registry.Address{Lines: []string{"Forusbeen 50"}, PostalCode: countrykit.Ptr("4035"), City: countrykit.Ptr("STAVANGER")}
	r.PostalAddress = &registry.Address{Lines: []string{"Postboks 8500"}, PostalCode: countrykit.Ptr("4035"), City: countrykit.Ptr("STAVANGER")}
	r.SourceURL = countrykit.Ptr("https://virksomhet.brreg.no/nb/oppslag/enheter/923609016")
	r.Employees = countrykit.Ptr(10)
	return r
}

const src = "https://virksomhet.brreg.no/nb/oppslag/enheter/923609016"

// TestDiffKinds: each tracked field gives its kind with old and new
// values; untracked fields and the library's own wording give nothing.
func TestDiffKinds(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		edit func(r *registry.CompanyReport)
		want []wire
	}{
		{"nothing", func(*registry.CompanyReport) {}, []wire{}},
		{"untracked fields and wording", func(r *registry.CompanyReport) {
			r.Employees = countrykit.Ptr(11)
			r.StatusDetail = countrykit.Ptr("Active: reworded.")
			r.LegalForm = countrykit.Ptr("Limited company")
			r.Notes = []string{"a note"}
		}, []wire{}},
		{"bankrupt", func(r *registry.CompanyReport) { r.Status = registry.StatusBankrupt }, []wire{
			{Kind: changes.KindStatusChanged, Name: "EKSEMPEL AS", Old: `"active"`, New: `"bankrupt"`, Source: src},
		}},
		{"deleted status", func(r *registry.CompanyReport) { r.Status = registry.StatusDeleted }, []wire{
			{Kind: changes.KindDeleted, Name: "EKSEMPEL AS", Old: `"active"`, New: `"deleted"`, Source: src},
		}},
		{"name", func(r *registry.CompanyReport) { r.Name = "NYTT NAVN AS" }, []wire{
			{Kind: changes.KindNameChanged, Name: "NYTT NAVN AS", Old: `"EKSEMPEL AS"`, New: `"NYTT NAVN AS"`, Source: src},
		}},
		{"postal address", func(r *registry.CompanyReport) { r.PostalAddress.Lines = []string{"Postboks 1"} }, []wire{
			{Kind: changes.KindAddressChanged, Name: "EKSEMPEL AS",
				Old:    `{"business_address":{"lines":["Forusbeen 50"],"postal_code":"4035","city":"STAVANGER","municipality":null,"municipality_code":null,"country_code":null,"country_name":null},"postal_address":{"lines":["Postboks 8500"],"postal_code":"4035","city":"STAVANGER","municipality":null,"municipality_code":null,"country_code":null,"country_name":null}}`,
				New:    `{"business_address":{"lines":["Forusbeen 50"],"postal_code":"4035","city":"STAVANGER","municipality":null,"municipality_code":null,"country_code":null,"country_name":null},"postal_address":{"lines":["Postboks 1"],"postal_code":"4035","city":"STAVANGER","municipality":null,"municipality_code":null,"country_code":null,"country_name":null}}`,
				Source: src},
		}},
		{"business address removed", func(r *registry.CompanyReport) { r.BusinessAddress = nil; r.PostalAddress = nil }, []wire{
			{Kind: changes.KindAddressChanged, Name: "EKSEMPEL AS",
				Old: `{"business_address":{"lines":["Forusbeen 50"],"postal_code":"4035","city":"STAVANGER","municipality":null,"municipality_code":null,"country_code":null,"country_name":null},"postal_address":{"lines":["Postboks 8500"],"postal_code":"4035","city":"STAVANGER","municipality":null,"municipality_code":null,"country_code":null,"country_name":null}}`,
				New: `{"business_address":null,"postal_address":null}`, Source: src},
		}},
		{"legal form", func(r *registry.CompanyReport) {
			r.LegalFormCode, r.LegalForm, r.LegalFormLocal = countrykit.Ptr("ASA"), countrykit.Ptr("Public limited company"), countrykit.Ptr("Allmennaksjeselskap")
		}, []wire{
			{Kind: changes.KindLegalFormChanged, Name: "EKSEMPEL AS",
				Old: `{"legal_form_code":"AS","legal_form":"Private limited company","legal_form_local":"Aksjeselskap"}`,
				New: `{"legal_form_code":"ASA","legal_form":"Public limited company","legal_form_local":"Allmennaksjeselskap"}`, Source: src},
		}},
		{"VAT deregistered", func(r *registry.CompanyReport) {
			r.VATRegistered, r.VATNumber, r.VATRegisteredAt = countrykit.Ptr(false), nil, nil
		}, []wire{
			{Kind: changes.KindVATChanged, Name: "EKSEMPEL AS",
				Old: `{"vat_registered":true,"vat_registered_at":"2001-01-01","vat_number":"NO923609016MVA"}`,
				New: `{"vat_registered":false,"vat_registered_at":null,"vat_number":null}`, Source: src},
		}},
		{"several at once, in the kinds' order", func(r *registry.CompanyReport) {
			r.VATRegistered = countrykit.Ptr(false)
			r.Name = "X AS"
			r.Status = registry.StatusUnderLiquidation
		}, []wire{
			{Kind: changes.KindStatusChanged, Name: "X AS", Old: `"active"`, New: `"under_liquidation"`, Source: src},
			{Kind: changes.KindNameChanged, Name: "X AS", Old: `"EKSEMPEL AS"`, New: `"X AS"`, Source: src},
			{Kind: changes.KindVATChanged, Name: "X AS",
				Old: `{"vat_registered":true,"vat_registered_at":"2001-01-01","vat_number":"NO923609016MVA"}`,
				New: `{"vat_registered":false,"vat_registered_at":"2001-01-01","vat_number":"NO923609016MVA"}`, Source: src},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			after := baseReport()
			tc.edit(after)
			got, err := changes.Diff(snapshotOf(t, baseReport(), nil), snapshotOf(t, after, nil), now)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, wires(got)); diff != "" {
				t.Errorf("changes (-want +got):\n%s", diff)
			}
			for _, c := range got {
				if c.Country != "NO" || c.CompanyID != "923609016" || !c.DetectedAt.Equal(now) || c.ID != "" || c.Seq != 0 {
					t.Errorf("change %+v: want country NO, id 923609016, detected now, no ID or Seq", c)
				}
			}
		})
	}
}

// TestDiffDeletedAndBaseline: a company the register no longer has is
// deleted once; an old snapshot without a report is no baseline.
func TestDiffDeletedAndBaseline(t *testing.T) {
	t.Parallel()
	gone := changes.Snapshot{Country: "NO", CompanyID: "923609016", Report: json.RawMessage("null")}
	got, err := changes.Diff(snapshotOf(t, baseReport(), nil), gone, now)
	if err != nil {
		t.Fatal(err)
	}
	want := []wire{{Kind: changes.KindDeleted, Name: "EKSEMPEL AS", Old: `"active"`, New: `null`, Source: src}}
	if diff := cmp.Diff(want, wires(got)); diff != "" {
		t.Errorf("gone (-want +got):\n%s", diff)
	}
	deleted := baseReport()
	deleted.Status = registry.StatusDeleted
	for name, pair := range map[string][2]changes.Snapshot{
		"already deleted, then gone": {snapshotOf(t, deleted, nil), gone},
		"no baseline":                {{Country: "NO", CompanyID: "923609016"}, snapshotOf(t, baseReport(), nil)},
		"null baseline":              {gone, snapshotOf(t, baseReport(), nil)},
	} {
		got, err := changes.Diff(pair[0], pair[1], now)
		if err != nil || len(got) != 0 {
			t.Errorf("%s: Diff = %v, %v; want no change", name, got, err)
		}
	}
}

// TestDiffRoles: current roles are compared by who holds which role; the
// English label and former roles are not compared; no roles on either
// side is no roles change.
func TestDiffRoles(t *testing.T) {
	t.Parallel()
	person := func(code, name string, current bool) registry.Role {
		return registry.Role{Group: registry.RoleBoard, RoleCode: code, Role: "Board member", Current: current,
			Holder: registry.RoleHolder{Kind: registry.HolderPerson, Name: name, BirthYear: countrykit.Ptr(1970), BirthMonth: countrykit.Ptr(5)}}
	}
	auditor := registry.Role{Group: registry.RoleAuditor, RoleCode: "REVI", Role: "Auditor", Current: true,
		Holder: registry.RoleHolder{Kind: registry.HolderEntity, Name: "REVISOR AS", ID: countrykit.Ptr("999999999")}}
	roles := func(rs ...registry.Role) *registry.RolesReport {
		return &registry.RolesReport{Country: "NO", Registry: "brreg", ID: "923609016", Name: "EKSEMPEL AS", Roles: rs}
	}
	before := roles(person("LEDE", "Kari Nordmann", true), person("MEDL", "Ola Nordmann", true), auditor)
	relabelled := roles(auditor, person("MEDL", "Ola Nordmann", true), person("LEDE", "Kari Nordmann", true), person("MEDL", "Per Former", false))
	relabelled.Roles[0].Role = "Statutory auditor"
	if got, err := changes.Diff(snapshotOf(t, baseReport(), before), snapshotOf(t, baseReport(), relabelled), now); err != nil || len(got) != 0 {
		t.Errorf("reordered, relabelled, a former role added: %v, %v; want no change", wires(got), err)
	}
	if got, err := changes.Diff(snapshotOf(t, baseReport(), nil), snapshotOf(t, baseReport(), before), now); err != nil || len(got) != 0 {
		t.Errorf("no old roles: %v, %v; want no change", wires(got), err)
	}
	after := roles(person("LEDE", "Ola Nordmann", true), person("MEDL", "Kari Nordmann", false), auditor)
	got, err := changes.Diff(snapshotOf(t, baseReport(), before), snapshotOf(t, baseReport(), after), now)
	if err != nil {
		t.Fatal(err)
	}
	want := []wire{{Kind: changes.KindRolesChanged, Name: "EKSEMPEL AS", Source: src,
		Old: `[{"group":"board","role_code":"LEDE","role":"Board member","holder":"Kari Nordmann","holder_kind":"person","holder_id":null},` +
			`{"group":"board","role_code":"MEDL","role":"Board member","holder":"Ola Nordmann","holder_kind":"person","holder_id":null},` +
			`{"group":"auditor","role_code":"REVI","role":"Auditor","holder":"REVISOR AS","holder_kind":"entity","holder_id":"999999999"}]`,
		New: `[{"group":"board","role_code":"LEDE","role":"Board member","holder":"Ola Nordmann","holder_kind":"person","holder_id":null},` +
			`{"group":"auditor","role_code":"REVI","role":"Auditor","holder":"REVISOR AS","holder_kind":"entity","holder_id":"999999999"}]`}}
	if diff := cmp.Diff(want, wires(got)); diff != "" {
		t.Errorf("roles change (-want +got):\n%s", diff)
	}
}

// TestDiffRejectsBadJSON: a snapshot that is not a report is an error,
// never a panic or a made-up change.
func TestDiffRejectsBadJSON(t *testing.T) {
	t.Parallel()
	good := snapshotOf(t, baseReport(), nil)
	for name, pair := range map[string][2]changes.Snapshot{
		"old report": {{Report: json.RawMessage(`{"status":`)}, good},
		"new report": {good, {Report: json.RawMessage(`[1]`)}},
		"status":     {good, {Report: json.RawMessage(`{"status":"sleeping"}`)}},
		"old roles":  {{Report: good.Report, Roles: json.RawMessage(`{"roles":[{"group":"king"}]}`)}, {Report: good.Report, Roles: json.RawMessage(`{}`)}},
		"new roles":  {{Report: good.Report, Roles: json.RawMessage(`{}`)}, {Report: good.Report, Roles: json.RawMessage(`x`)}},
	} {
		if got, err := changes.Diff(pair[0], pair[1], now); err == nil {
			t.Errorf("%s: Diff = %v, want an error", name, wires(got))
		}
	}
}

// FuzzDiff: any two documents give changes or an error, never a panic;
// a snapshot compared with itself gives no change (or an error).
func FuzzDiff(f *testing.F) {
	b, _ := json.Marshal(baseReport())
	f.Add(b, b, []byte(`{"roles":[]}`))
	f.Add([]byte(`{"status":"active","name":"A"}`), []byte(`null`), []byte(`null`))
	f.Fuzz(func(t *testing.T, old, new, roles []byte) {
		a := changes.Snapshot{Report: old, Roles: roles}
		if _, err := changes.Diff(a, changes.Snapshot{Report: new, Roles: roles}, now); err != nil {
			return
		}
		if got, err := changes.Diff(a, a, now); err == nil && len(got) != 0 {
			t.Errorf("a snapshot against itself: %v, %v", wires(got), err)
		}
	})
}

// TestDiffVanishedRoleGroup (issue 28: "a register outage or a 404 must
// not produce a false" change; Brønnøysund's module and Companies House's
// read a 404 of a roles list as no roles): a whole group of roles gone
// from a company still active is reported only on the second consecutive
// such answer (new.RolesMisses ≥ 2, counted by the caller); a deleted company's
// roles at once; a role gone from a group that keeps others at once.
func TestDiffVanishedRoleGroup(t *testing.T) {
	t.Parallel()
	board := registry.Role{Group: registry.RoleBoard, RoleCode: "LEDE", Role: "Chair", Current: true,
		Holder: registry.RoleHolder{Kind: registry.HolderPerson, Name: "Kari Nordmann"}}
	member := registry.Role{Group: registry.RoleBoard, RoleCode: "MEDL", Role: "Board member", Current: true,
		Holder: registry.RoleHolder{Kind: registry.HolderPerson, Name: "Ola Nordmann"}}
	auditor := registry.Role{Group: registry.RoleAuditor, RoleCode: "REVI", Role: "Auditor", Current: true,
		Holder: registry.RoleHolder{Kind: registry.HolderEntity, Name: "REVISOR AS", ID: countrykit.Ptr("999999999")}}
	roles := func(rs ...registry.Role) *registry.RolesReport {
		return &registry.RolesReport{Country: "NO", Registry: "brreg", ID: "923609016", Name: "EKSEMPEL AS", Roles: rs}
	}
	old := snapshotOf(t, baseReport(), roles(board, member, auditor))
	kinds := func(old, new changes.Snapshot) []changes.Kind {
		t.Helper()
		got, err := changes.Diff(old, new, now)
		if err != nil {
			t.Fatal(err)
		}
		var out []changes.Kind
		for _, c := range got {
			out = append(out, c.Kind)
		}
		return out
	}
	none := snapshotOf(t, baseReport(), roles())
	if !changes.RolesVanished(old, none) {
		t.Error("RolesVanished(every role gone) = false")
	}
	if got := kinds(old, none); len(got) != 0 {
		t.Errorf("every role gone, first answer: %v; want nothing yet", got)
	}
	noAuditor := snapshotOf(t, baseReport(), roles(board, member))
	if got := kinds(old, noAuditor); len(got) != 0 {
		t.Errorf("the auditor group gone, first answer: %v; want nothing yet", got)
	}
	none.RolesMisses = 2
	if got := kinds(old, none); !slices.Equal(got, []changes.Kind{changes.KindRolesChanged}) {
		t.Errorf("every role gone, second answer: %v; want roles_changed", got)
	}
	if got := kinds(old, snapshotOf(t, baseReport(), roles(board, auditor))); !slices.Equal(got, []changes.Kind{changes.KindRolesChanged}) {
		t.Errorf("one board member gone, the board kept: %v; want roles_changed at once", got)
	}
	deleted := baseReport()
	deleted.Status = registry.StatusDeleted
	gone := snapshotOf(t, deleted, roles())
	if changes.RolesVanished(old, gone) {
		t.Error("RolesVanished(a deleted company) = true")
	}
	if got := kinds(old, gone); !slices.Contains(got, changes.KindRolesChanged) {
		t.Errorf("a deleted company's roles gone: %v; want roles_changed with the deletion", got)
	}
}
