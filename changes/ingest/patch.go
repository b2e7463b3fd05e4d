package ingest

import (
	"encoding/json"
	"strconv"
	"strings"
	"time"

	"github.com/companyregistry/registry/changes"
)

// kindOfPath maps the JSON Patch path of a Brønnøysund feed item (a JSON
// Pointer into GET /enheter/{orgnr}) to the kind of change it belongs to,
// by its first field; ok is false for a field no kind tracks (the
// employee count, the last accounts year, the purpose …). The fields are
// those of the register's Enhet and Underenhet schemas that the
// Norwegian module maps to the report's status, name, addresses, legal
// form and VAT registration.
func kindOfPath(path string) (changes.Kind, bool) {
	field, _, _ := strings.Cut(strings.TrimPrefix(path, "/"), "/")
	field = strings.NewReplacer("~1", "/", "~0", "~").Replace(field)
	switch field {
	case "navn", "historiskeNavn":
		return changes.KindNameChanged, true
	case "forretningsadresse", "postadresse", "beliggenhetsadresse":
		return changes.KindAddressChanged, true
	case "organisasjonsform":
		return changes.KindLegalFormChanged, true
	case "registrertIMvaregisteret", "registreringsdatoMerverdiavgiftsregisteret":
		return changes.KindVATChanged, true
	case "konkurs", "konkursdato", "underAvvikling", "underAvviklingDato",
		"underTvangsavviklingEllerTvangsopplosning", "nedleggelsesdato":
		return changes.KindStatusChanged, true
	case "slettedato":
		return changes.KindDeleted, true
	}
	if strings.HasPrefix(field, "tvangsopplost") || strings.HasPrefix(field, "tvangsavviklet") {
		return changes.KindStatusChanged, true
	}
	return "", false
}

// feedReport is the New value of a change recorded from a Norwegian feed
// item of a company no watch follows: the register's own account.
type feedReport struct {
	// Feed is "enheter", "underenheter" or "roller".
	Feed string `json:"feed"`
	// UpdateID is the item's oppdateringsid (the roles event's id).
	UpdateID int64 `json:"update_id"`
	// ChangeType is the item's endringstype or the roles event's type.
	ChangeType string `json:"change_type"`
	// Patch holds the item's JSON Patch operations of the change's kind
	// (all of them for an "updated" change), as the register sent them.
	Patch []json.RawMessage `json:"patch"`
}

// maxOpsPerChange bounds the operations kept in one change.
const maxOpsPerChange = 100

// feedChanges returns what a feed item of a company no watch follows
// records: for an item of the roles feed one roles_changed; for a
// deletion or removal one deleted; otherwise one change per kind its
// patch paths touch, or one "updated" change when they touch none (or
// the item has no patch). Old is null; New is the register's account
// ([feedReport]). The name is the patch's new name, when it has one.
func feedChanges(f feedSpec, it feedItem, now time.Time) []changes.Change {
	var kinds []changes.Kind
	ops := map[changes.Kind][]json.RawMessage{}
	add := func(k changes.Kind, raw json.RawMessage) {
		if _, seen := ops[k]; !seen {
			kinds = append(kinds, k)
			ops[k] = []json.RawMessage{}
		}
		if raw != nil && len(ops[k]) < maxOpsPerChange {
			ops[k] = append(ops[k], raw)
		}
	}
	var name *string
	switch {
	case f.roles:
		add(changes.KindRolesChanged, nil)
	case it.Type == removedType:
		// Removed from the open data: the deletion, without the patch
		// (which may hold what is to be removed).
		add(changes.KindDeleted, nil)
	case it.Type == "Sletting":
		add(changes.KindDeleted, nil)
		for _, op := range it.Ops {
			add(changes.KindDeleted, op.Raw)
		}
	default:
		for _, op := range it.Ops {
			if k, ok := kindOfPath(op.Path); ok {
				add(k, op.Raw)
			}
			if op.Path == "/navn" && (op.Op == "replace" || op.Op == "add") {
				name = newName(op.Raw)
			}
		}
		if len(kinds) == 0 {
			add(changes.KindUpdated, nil)
			for _, op := range it.Ops {
				add(changes.KindUpdated, op.Raw)
			}
		}
	}
	out := make([]changes.Change, 0, len(kinds))
	for _, k := range kinds {
		b, err := json.Marshal(feedReport{Feed: f.name, UpdateID: it.ID, ChangeType: it.Type, Patch: ops[k]})
		if err != nil {
			continue
		}
		src := f.sourceURL(it.OrgNr)
		out = append(out, changes.Change{
			Country: "NO", CompanyID: it.OrgNr, CompanyName: name, Kind: k,
			Old: json.RawMessage("null"), New: b,
			RegisteredAt: it.Published, DetectedAt: now, SourceURL: &src,
			SourceEventID: f.eventID(it.ID),
		})
	}
	return out
}

// newName reads the value of a /navn operation.
func newName(raw json.RawMessage) *string {
	var o struct {
		Value *string `json:"value"`
	}
	if json.Unmarshal(raw, &o) != nil || o.Value == nil || strings.TrimSpace(*o.Value) == "" {
		return nil
	}
	s := strings.TrimSpace(*o.Value)
	return &s
}

// eventID is the SourceEventID of an item of the feed: the feed's name
// and the item's id, so that the ids of the three feeds never meet.
func (f feedSpec) eventID(id int64) string { return f.name + "/" + strconv.FormatInt(id, 10) }
