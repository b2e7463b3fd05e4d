package ingest

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/companyregistry/registry/idcheck"
)

// feedItem is one update of a Brønnøysund feed: an item of
// /oppdateringer/enheter or /underenheter, or an event of
// /oppdateringer/roller.
type feedItem struct {
	// ID is the oppdateringsid (the roles feed's event id).
	ID int64
	// OrgNr is the organisation number, nine digits.
	OrgNr string
	// Type is the endringstype (Ny, Endring, Sletting, Fjernet, Ukjent)
	// or the CloudEvents type of a roles event.
	Type string
	// Published is when the register published the update (dato, time),
	// when it could be read.
	Published *time.Time
	// Ops are the JSON Patch operations of endringer, valid ones only.
	Ops []patchOp
}

// patchOp is one JSON Patch operation of an item, kept as the register
// sent it (Raw) with its op and path read.
type patchOp struct {
	Op, Path string
	Raw      json.RawMessage
}

// unitPage is an answer of /oppdateringer/enheter or /underenheter: HAL
// with the items under _embedded, which is absent when there are none.
type unitPage struct {
	Embedded struct {
		Units    []rawUnitItem `json:"oppdaterteEnheter"`
		Subunits []rawUnitItem `json:"oppdaterteUnderenheter"`
	} `json:"_embedded"`
}

type rawUnitItem struct {
	ID        json.RawMessage   `json:"oppdateringsid"`
	Dato      string            `json:"dato"`
	OrgNr     string            `json:"organisasjonsnummer"`
	Type      string            `json:"endringstype"`
	Endringer []json.RawMessage `json:"endringer"`
}

// errNotAPage is a feed answer that is JSON but not of the expected
// shape.
var errNotAPage = errors.New("not a feed page")

// decodeUnitPage reads a page of /oppdateringer/enheter or /underenheter
// and returns its usable items sorted by id, and the number of items the
// page held (which says whether more remain). An item without a positive
// id or a valid organisation number is dropped; an unknown endringstype
// is kept as Ukjent; an operation that is not an object with op and path
// is dropped. A body that is not a JSON object is an error.
func decodeUnitPage(body []byte) ([]feedItem, int, error) {
	if b := bytes.TrimSpace(body); len(b) == 0 || b[0] != '{' {
		return nil, 0, errNotAPage
	}
	var p unitPage
	if err := json.Unmarshal(body, &p); err != nil {
		return nil, 0, err
	}
	raw := append(p.Embedded.Units, p.Embedded.Subunits...)
	out := make([]feedItem, 0, len(raw))
	for _, r := range raw {
		id, ok := parseID(r.ID)
		orgnr := strings.TrimSpace(r.OrgNr)
		if !ok || !validOrgNr(orgnr) {
			continue
		}
		it := feedItem{ID: id, OrgNr: orgnr, Type: changeType(r.Type), Published: parseTime(r.Dato)}
		for _, e := range r.Endringer {
			if op, ok := decodeOp(e); ok {
				it.Ops = append(it.Ops, op)
			}
		}
		out = append(out, it)
	}
	slices.SortStableFunc(out, func(a, b feedItem) int { return cmp.Compare(a.ID, b.ID) })
	return out, len(raw), nil
}

// roleEvent is a CloudEvents 1.0 object of /oppdateringer/roller.
type roleEvent struct {
	ID   json.RawMessage `json:"id"`
	Type string          `json:"type"`
	Time string          `json:"time"`
	Data struct {
		OrgNr string `json:"organisasjonsnummer"`
	} `json:"data"`
}

// decodeRoleEvents reads an answer of /oppdateringer/roller, a bare JSON
// array of CloudEvents, and returns its usable events sorted by id, and
// the number of events the array held (which says whether more remain).
// An event without an id that reads as a positive integer (a string or a
// number) or a valid organisation number is dropped. A body that is not
// a JSON array is an error.
func decodeRoleEvents(body []byte) ([]feedItem, int, error) {
	if b := bytes.TrimSpace(body); len(b) == 0 || b[0] != '[' {
		return nil, 0, errNotAPage
	}
	var evs []json.RawMessage
	if err := json.Unmarshal(body, &evs); err != nil {
		return nil, 0, err
	}
	out := make([]feedItem, 0, len(evs))
	for _, raw := range evs {
		var ev roleEvent
		if json.Unmarshal(raw, &ev) != nil {
			continue
		}
		id, ok := parseID(ev.ID)
		orgnr := strings.TrimSpace(ev.Data.OrgNr)
		if !ok || !validOrgNr(orgnr) {
			continue
		}
		out = append(out, feedItem{ID: id, OrgNr: orgnr, Type: strings.TrimSpace(ev.Type), Published: parseTime(ev.Time)})
	}
	slices.SortStableFunc(out, func(a, b feedItem) int { return cmp.Compare(a.ID, b.ID) })
	return out, len(evs), nil
}

// parseID reads an update id: a positive integer given as a JSON number
// (also 25152016.0) or as a string of digits.
func parseID(raw json.RawMessage) (int64, bool) {
	s := strings.TrimSpace(string(raw))
	if u, err := strconv.Unquote(s); err == nil {
		s = strings.TrimSpace(u)
	}
	s = strings.TrimSuffix(s, ".0")
	n, err := strconv.ParseInt(s, 10, 64)
	return n, err == nil && n > 0
}

func validOrgNr(s string) bool {
	n, p := idcheck.ParseOrgNr(s)
	return p == idcheck.ProblemNone && len(s) == 9 && n.String() == s
}

// The endringstype values of the register's documentation.
var changeTypes = []string{"Ny", "Endring", "Sletting", "Fjernet", "Ukjent"}

// changeType returns an endringstype as documented, or Ukjent for any
// other value (as the register's own Ukjent: "changed, kind unknown").
func changeType(s string) string {
	s = strings.TrimSpace(s)
	if slices.Contains(changeTypes, s) {
		return s
	}
	return "Ukjent"
}

// parseTime reads the register's time stamps (yyyy-MM-dd'T'HH:mm:ss.SSS'Z'
// or any RFC 3339 time); nil when it cannot.
func parseTime(s string) *time.Time {
	t, err := time.Parse(time.RFC3339Nano, strings.TrimSpace(s))
	if err != nil {
		return nil
	}
	t = t.UTC()
	return &t
}

// maxOpBytes bounds one operation kept in a change: a longer one keeps
// its op and path only.
const maxOpBytes = 4 << 10

// decodeOp reads one JSON Patch operation; ok is false for anything but
// an object with a non-empty op and a path starting with a slash.
func decodeOp(raw json.RawMessage) (patchOp, bool) {
	var o struct {
		Op   string `json:"op"`
		Path string `json:"path"`
	}
	if json.Unmarshal(raw, &o) != nil || o.Op == "" || !strings.HasPrefix(o.Path, "/") {
		return patchOp{}, false
	}
	if len(raw) > maxOpBytes {
		b, err := json.Marshal(o)
		if err != nil {
			return patchOp{}, false
		}
		raw = b
	}
	return patchOp{Op: o.Op, Path: o.Path, Raw: raw}, true
}
