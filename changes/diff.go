package changes

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	registry "github.com/companyregistry/registry"
)

// Diff returns the changes between two snapshots of one company: what a
// watcher is told. It compares the country-neutral reports and, when both
// snapshots hold one, the roles reports; a register's own account of a
// change (a JSON patch, a stream event) is never consulted.
//
// The changes come in the order of the kinds' declaration, at most one of
// each kind:
//
//   - [KindStatusChanged]: the status differs; old and new are the
//     statuses ("active", "bankrupt" …). A status that becomes "deleted" is
//     [KindDeleted] instead, with the same values.
//   - [KindNameChanged]: the registered name differs; old and new are the
//     names.
//   - [KindAddressChanged]: the business or the postal address differs;
//     old and new are {"business_address": …, "postal_address": …}.
//   - [KindLegalFormChanged]: the register's legal form code differs; old
//     and new are {"legal_form_code", "legal_form", "legal_form_local"}.
//   - [KindVATChanged]: VAT registration, its date or the VAT number
//     differs; old and new are {"vat_registered", "vat_registered_at",
//     "vat_number"}.
//   - [KindRolesChanged]: the current roles differ (who holds which role);
//     old and new are lists of {"group", "role_code", "role", "holder",
//     "holder_kind", "holder_id"}, a summary that carries no birth date,
//     nationality or residence. When a whole group of roles is gone and
//     the company is not deleted ([RolesVanished]: what a roles
//     endpoint's one-off 404 looks like), only when new.RolesMisses is at
//     least 2 (the second consecutive such answer, counted by the caller).
//
// A new snapshot without a report (the register no longer has the
// company) gives one [KindDeleted] change, old the last status and new
// null, unless the old report already said "deleted". An old snapshot
// without a report is no baseline: Diff returns no change. Texts this
// library writes (a status detail, a role's English label) are not
// compared, so that a new wording is never reported as a change.
//
// Each change has the country, the company's id and name (the new name, or
// the last known one when deleted), the report's source URL and DetectedAt
// now; ID, Seq, RegisteredAt and SourceEventID are left for the caller. A
// report or roles document that is not valid JSON is an error.
func Diff(old, new Snapshot, now time.Time) ([]Change, error) {
	before, err := decodeReport(old.Report)
	if err != nil {
		return nil, fmt.Errorf("changes: Diff: the old report: %w", err)
	}
	after, err := decodeReport(new.Report)
	if err != nil {
		return nil, fmt.Errorf("changes: Diff: the new report: %w", err)
	}
	if before == nil {
		return nil, nil
	}
	d := differ{country: cmp.Or(new.Country, old.Country), id: cmp.Or(new.CompanyID, old.CompanyID), now: now}
	if after == nil {
		if before.Status == registry.StatusDeleted {
			return nil, nil
		}
		d.name, d.source = before.Name, before.SourceURL
		d.add(KindDeleted, statusOf(before), nil)
		return d.out, d.err
	}
	d.name, d.source = after.Name, cmp.Or(after.SourceURL, before.SourceURL)
	if s0, s1 := statusOf(before), statusOf(after); s0 != s1 {
		kind := KindStatusChanged
		if s1 == registry.StatusDeleted {
			kind = KindDeleted
		}
		d.add(kind, s0, s1)
	}
	if before.Name != after.Name {
		d.add(KindNameChanged, before.Name, after.Name)
	}
	if a0, a1 := addressesOf(before), addressesOf(after); !sameJSON(a0, a1) {
		d.add(KindAddressChanged, a0, a1)
	}
	if !equalPtr(before.LegalFormCode, after.LegalFormCode) {
		d.add(KindLegalFormChanged, legalFormOf(before), legalFormOf(after))
	}
	if v0, v1 := vatOf(before), vatOf(after); !sameJSON(v0, v1) {
		d.add(KindVATChanged, v0, v1)
	}
	if d.err == nil {
		r0, err := rolesSummary(old.Roles)
		if err != nil {
			return nil, fmt.Errorf("changes: Diff: the old roles: %w", err)
		}
		r1, err := rolesSummary(new.Roles)
		if err != nil {
			return nil, fmt.Errorf("changes: Diff: the new roles: %w", err)
		}
		if r0 != nil && r1 != nil && !sameRoles(r0, r1) &&
			(!groupVanished(r0, r1) || after.Status == registry.StatusDeleted || new.RolesMisses >= 2) {
			d.add(KindRolesChanged, r0, r1)
		}
	}
	if d.err != nil {
		return nil, d.err
	}
	return d.out, nil
}

// differ collects the changes of one Diff.
type differ struct {
	country, id string
	name        string
	source      *string
	now         time.Time
	out         []Change
	err         error
}

func (d *differ) add(kind Kind, old, new any) {
	o, err := json.Marshal(old)
	if err != nil {
		d.err = err
		return
	}
	n, err := json.Marshal(new)
	if err != nil {
		d.err = err
		return
	}
	c := Change{Country: d.country, CompanyID: d.id, Kind: kind, Old: o, New: n, DetectedAt: d.now, SourceURL: d.source}
	if d.name != "" {
		name := d.name
		c.CompanyName = &name
	}
	d.out = append(d.out, c)
}

// decodeReport decodes a snapshot's report; nil (no report) for an empty
// or null document.
func decodeReport(b json.RawMessage) (*registry.CompanyReport, error) {
	if isNull(b) {
		return nil, nil
	}
	var r registry.CompanyReport
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, err
	}
	return &r, nil
}

func isNull(b json.RawMessage) bool {
	b = bytes.TrimSpace(b)
	return len(b) == 0 || bytes.Equal(b, []byte("null"))
}

// statusOf is the report's status with the zero value spelt out.
func statusOf(r *registry.CompanyReport) registry.Status {
	return cmp.Or(r.Status, registry.StatusUnknown)
}

// addresses is the value of an address change.
type addresses struct {
	Business *registry.Address `json:"business_address"`
	Postal   *registry.Address `json:"postal_address"`
}

func addressesOf(r *registry.CompanyReport) addresses {
	return addresses{Business: r.BusinessAddress, Postal: r.PostalAddress}
}

// legalForm is the value of a legal form change.
type legalForm struct {
	Code  *string `json:"legal_form_code"`
	Name  *string `json:"legal_form"`
	Local *string `json:"legal_form_local"`
}

func legalFormOf(r *registry.CompanyReport) legalForm {
	return legalForm{Code: r.LegalFormCode, Name: r.LegalForm, Local: r.LegalFormLocal}
}

// vat is the value of a VAT change.
type vat struct {
	Registered   *bool          `json:"vat_registered"`
	RegisteredAt *registry.Date `json:"vat_registered_at"`
	Number       *string        `json:"vat_number"`
}

func vatOf(r *registry.CompanyReport) vat {
	return vat{Registered: r.VATRegistered, RegisteredAt: r.VATRegisteredAt, Number: r.VATNumber}
}

// RoleSummary is one current role as a roles change shows it: who holds
// which role, without the holder's birth date, nationality or residence.
type RoleSummary struct {
	Group    registry.RoleGroup `json:"group"`
	RoleCode string             `json:"role_code"`
	// Role is the English label, shown but not compared.
	Role       string  `json:"role"`
	Holder     string  `json:"holder"`
	HolderKind string  `json:"holder_kind"`
	HolderID   *string `json:"holder_id"`
}

// rolesSummary returns the current roles of a roles report in a stable
// order, [] for a report without any, and nil for no report.
func rolesSummary(b json.RawMessage) ([]RoleSummary, error) {
	if isNull(b) {
		return nil, nil
	}
	var r registry.RolesReport
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, err
	}
	out := []RoleSummary{}
	for _, ro := range r.Roles {
		if !ro.Current {
			continue
		}
		out = append(out, RoleSummary{Group: cmp.Or(ro.Group, registry.RoleOther), RoleCode: ro.RoleCode, Role: ro.Role,
			Holder: ro.Holder.Name, HolderKind: ro.Holder.Kind, HolderID: ro.Holder.ID})
	}
	groups := registry.RoleGroups()
	slices.SortStableFunc(out, func(a, b RoleSummary) int {
		return cmp.Or(
			cmp.Compare(slices.Index(groups, a.Group), slices.Index(groups, b.Group)),
			cmp.Compare(a.RoleCode, b.RoleCode),
			cmp.Compare(a.HolderKind, b.HolderKind),
			cmp.Compare(a.Holder, b.Holder),
			cmp.Compare(deref(a.HolderID), deref(b.HolderID)),
		)
	})
	return out, nil
}

// groupVanished reports whether a group of roles held in r0 has no role
// in r1.
func groupVanished(r0, r1 []RoleSummary) bool {
	have := map[string]bool{}
	for _, r := range r1 {
		have[string(r.Group)] = true
	}
	for _, r := range r0 {
		if !have[string(r.Group)] {
			return true
		}
	}
	return false
}

// RolesVanished reports whether new's roles report lacks a whole group of
// roles that old's holds (every board member, every beneficial owner …)
// while new's report does not say the company is deleted: what a roles
// endpoint's one-off 404 looks like (the Norwegian and British modules
// answer a 404 of a roles list as no roles). [Diff] reports such a
// change only when new.RolesMisses is at least 2, the second consecutive
// such answer: the caller counts, as for a deletion. Snapshots that do
// not decode give false.
func RolesVanished(old, new Snapshot) bool {
	r0, err0 := rolesSummary(old.Roles)
	r1, err1 := rolesSummary(new.Roles)
	after, err2 := decodeReport(new.Report)
	if err0 != nil || err1 != nil || err2 != nil || r0 == nil || r1 == nil || after == nil {
		return false
	}
	return groupVanished(r0, r1) && after.Status != registry.StatusDeleted
}

// sameRoles compares two summaries by who holds which role, ignoring the
// labels.
func sameRoles(a, b []RoleSummary) bool {
	return slices.EqualFunc(a, b, func(x, y RoleSummary) bool {
		return x.Group == y.Group && x.RoleCode == y.RoleCode && x.Holder == y.Holder &&
			x.HolderKind == y.HolderKind && equalPtr(x.HolderID, y.HolderID)
	})
}

func sameJSON(a, b any) bool {
	x, err1 := json.Marshal(a)
	y, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && bytes.Equal(x, y)
}

func equalPtr[T comparable](a, b *T) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
