package ingest

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/companyregistry/registry/changes"
	"github.com/companyregistry/registry/internal/moduletest"
)

// TestDecodeUnitPage reads the recorded pages: the 2020 page's 20 items
// in order with their types and times, an empty page without _embedded,
// and the operations of a patch.
func TestDecodeUnitPage(t *testing.T) {
	t.Parallel()
	items, n, err := decodeUnitPage(moduletest.Recording(t, "brreg", "oppdateringer_enheter_oppdateringsid-9400339_size20_page0_2020-10.json"))
	if err != nil || n != 20 || len(items) != 20 {
		t.Fatalf("decodeUnitPage = %d items of %d, %v; want 20 of 20", len(items), n, err)
	}
	if it := items[19]; it.ID != 9400372 || it.OrgNr != "987621370" || it.Type != "Endring" || it.Ops != nil ||
		!it.Published.Equal(time.Date(2020, 10, 5, 4, 1, 43, 945e6, time.UTC)) {
		t.Errorf("last item %+v", it)
	}
	items, n, err = decodeUnitPage(moduletest.Recording(t, "brreg", "oppdateringer_enheter_includeChanges_984851006_no-changes_2026-09.json"))
	if err != nil || n != 0 || len(items) != 0 {
		t.Errorf("empty page = %v, %d, %v", items, n, err)
	}
	items, _, err = decodeUnitPage(moduletest.Recording(t, "brreg", "oppdateringer_enheter_includeChanges_914375916_name-and-address-change_2026-09_ANONYMISED.json"))
	if err != nil || items[0].ID != 24585313 || items[3].ID != 25152016 {
		t.Fatalf("items not ascending: %v, %v", items, err)
	}
	var paths []string
	for _, op := range items[3].Ops {
		paths = append(paths, op.Op+" "+op.Path)
	}
	want := []string{"add /postadresse", "replace /forretningsadresse/postnummer", "replace /forretningsadresse/adresse/0",
		"replace /vedtektsdato", "replace /navn", "replace /vedtektsfestetFormaal/0", "replace /vedtektsfestetFormaal/1", "add /historiskeNavn/-"}
	if diff := cmp.Diff(want, paths); diff != "" {
		t.Errorf("ops (-want +got):\n%s", diff)
	}
}

// TestDecodeUnitPageTolerance: ids as strings or floats, an unknown
// endringstype (Ukjent), items without a valid id or organisation number
// and malformed operations are handled as the research note says.
func TestDecodeUnitPageTolerance(t *testing.T) {
	t.Parallel()
	body := `{"_embedded":{"oppdaterteEnheter":[
		{"oppdateringsid":"7","organisasjonsnummer":"971421444","endringstype":"Omdanning","dato":"not a time"},
		{"oppdateringsid":5.0,"organisasjonsnummer":"915735045","endringstype":"Ny",
		 "endringer":[{"op":"add","path":"/navn","value":"X"},"junk",{"op":"replace"},{"path":"/x"},{"op":"remove","path":"nope"}]},
		{"oppdateringsid":-1,"organisasjonsnummer":"971421444","endringstype":"Endring"},
		{"oppdateringsid":8,"organisasjonsnummer":"971421445","endringstype":"Endring"},
		{"oppdateringsid":9,"organisasjonsnummer":"97142144","endringstype":"Endring"},
		{"organisasjonsnummer":"971421444"}]}}`
	items, n, err := decodeUnitPage([]byte(body))
	if err != nil || n != 6 {
		t.Fatalf("decode: %v (%d items)", err, n)
	}
	if len(items) != 2 || items[0].ID != 5 || items[1].ID != 7 || items[1].Type != "Ukjent" || items[1].Published != nil ||
		len(items[0].Ops) != 1 || items[0].Ops[0].Path != "/navn" {
		t.Errorf("items %+v", items)
	}
	for _, bad := range []string{"", "null", "[]", `"x"`, "{", `{"_embedded":{"oppdaterteEnheter":{}}}`} {
		if _, _, err := decodeUnitPage([]byte(bad)); err == nil {
			t.Errorf("decodeUnitPage(%q) succeeded", bad)
		}
	}
}

// TestDecodeRoleEvents reads the synthetic roles feed: ids as strings,
// the documented invalid time placeholder read as no time, and the count
// that tells whether more remain.
func TestDecodeRoleEvents(t *testing.T) {
	t.Parallel()
	items, n, err := decodeRoleEvents(moduletest.Recording(t, "brreg", "oppdateringer_roller_SYNTHETIC.json"))
	if err != nil || n != 3 || len(items) != 3 {
		t.Fatalf("decodeRoleEvents = %v, %d, %v", items, n, err)
	}
	if items[0].ID != 5000001 || items[0].OrgNr != "923609016" || items[0].Type != "no.brreg.enhetsregisteret.rolle.oppdatert" ||
		items[0].Published == nil || items[2].Published != nil {
		t.Errorf("events %+v", items)
	}
	items, n, err = decodeRoleEvents([]byte(`[{"id":12,"data":{"organisasjonsnummer":"971421444"}},{"id":"x"},7,{"data":null}]`))
	if err != nil || n != 4 || len(items) != 1 || items[0].ID != 12 {
		t.Errorf("tolerant decode = %v, %d, %v", items, n, err)
	}
	for _, bad := range []string{"", "{}", "[", "null"} {
		if _, _, err := decodeRoleEvents([]byte(bad)); err == nil {
			t.Errorf("decodeRoleEvents(%q) succeeded", bad)
		}
	}
}

// TestKindOfPath: the patch paths of the research note's mapping table.
func TestKindOfPath(t *testing.T) {
	t.Parallel()
	for path, want := range map[string]changes.Kind{
		"/navn": changes.KindNameChanged, "/historiskeNavn/-": changes.KindNameChanged,
		"/forretningsadresse/adresse/0": changes.KindAddressChanged, "/postadresse": changes.KindAddressChanged,
		"/beliggenhetsadresse/postnummer": changes.KindAddressChanged,
		"/organisasjonsform/kode":         changes.KindLegalFormChanged,
		"/registrertIMvaregisteret":       changes.KindVATChanged, "/registreringsdatoMerverdiavgiftsregisteret": changes.KindVATChanged,
		"/konkurs": changes.KindStatusChanged, "/konkursdato": changes.KindStatusChanged, "/underAvvikling": changes.KindStatusChanged,
		"/underTvangsavviklingEllerTvangsopplosning": changes.KindStatusChanged,
		"/tvangsopplostPgaManglendeRevisorDato":      changes.KindStatusChanged,
		"/tvangsavvikletPgaManglendeSlettingDato":    changes.KindStatusChanged,
		"/nedleggelsesdato":                          changes.KindStatusChanged,
		"/slettedato":                                changes.KindDeleted,
		"/antallAnsatte":                             "", "/sisteInnsendteAarsregnskap": "", "/navnX": "", "/": "", "": "",
	} {
		got, ok := kindOfPath(path)
		if got != want || ok != (want != "") {
			t.Errorf("kindOfPath(%q) = %q, %v; want %q", path, got, ok, want)
		}
	}
}

// TestFeedChangesBounds: an item with more operations than a change keeps
// is cut at the bound, and an operation with a huge value keeps its op and
// path only.
func TestFeedChangesBounds(t *testing.T) {
	t.Parallel()
	var ops []string
	for range 150 {
		ops = append(ops, `{"op":"replace","path":"/antallAnsatte","value":1}`)
	}
	ops = append(ops, `{"op":"replace","path":"/navn","value":"`+strings.Repeat("X", 10000)+`"}`)
	body := `{"_embedded":{"oppdaterteEnheter":[{"oppdateringsid":1,"organisasjonsnummer":"971421444","endringstype":"Endring","endringer":[` +
		strings.Join(ops, ",") + `]}]}}`
	items, _, err := decodeUnitPage([]byte(body))
	if err != nil {
		t.Fatal(err)
	}
	cs := feedChanges(norwayFeeds[0], items[0], t0)
	if len(cs) != 1 || cs[0].Kind != changes.KindNameChanged || string(cs[0].New) !=
		`{"feed":"enheter","update_id":1,"change_type":"Endring","patch":[{"op":"replace","path":"/navn"}]}` || cs[0].CompanyName != nil {
		t.Errorf("changes %+v", recordedOf(cs))
	}
	items[0].Ops = items[0].Ops[:150]
	cs = feedChanges(norwayFeeds[0], items[0], t0)
	var rep feedReport
	if err := json.Unmarshal(cs[0].New, &rep); err != nil || cs[0].Kind != changes.KindUpdated || len(rep.Patch) != maxOpsPerChange {
		t.Errorf("updated change with %d ops, %v; want %d", len(rep.Patch), err, maxOpsPerChange)
	}
}

// FuzzDecodeUnitPage: any body decodes to valid items or an error, never
// a panic; every item has a positive id and a valid organisation number,
// in ascending order, and gives changes that encode.
func FuzzDecodeUnitPage(f *testing.F) {
	moduletest.AddFiles(f, "testdata/brreg/oppdateringer_*.json")
	f.Add([]byte(`{"_embedded":{"oppdaterteUnderenheter":[{"oppdateringsid":"3","organisasjonsnummer":"971421444","endringer":[{"op":"add","path":"/~1navn"}]}]}}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		items, n, err := decodeUnitPage(body)
		if err != nil {
			return
		}
		if len(items) > n {
			t.Fatalf("%d items of %d", len(items), n)
		}
		for i, it := range items {
			if it.ID <= 0 || !validOrgNr(it.OrgNr) || (i > 0 && it.ID < items[i-1].ID) {
				t.Fatalf("bad item %+v", it)
			}
			for _, c := range feedChanges(norwayFeeds[0], it, t0) {
				if !json.Valid(c.New) {
					t.Fatalf("change value %s", c.New)
				}
			}
		}
	})
}

// FuzzDecodeRoleEvents: the CloudEvents batch decoder never panics and
// keeps only usable events.
func FuzzDecodeRoleEvents(f *testing.F) {
	moduletest.AddFiles(f, "testdata/brreg/oppdateringer_roller_*.json")
	f.Add([]byte(`[{"id":1e3,"data":{"organisasjonsnummer":" 971421444 "}}]`))
	f.Fuzz(func(t *testing.T, body []byte) {
		items, n, err := decodeRoleEvents(body)
		if err != nil {
			return
		}
		if len(items) > n {
			t.Fatalf("%d events of %d", len(items), n)
		}
		for _, it := range items {
			if it.ID <= 0 || !validOrgNr(it.OrgNr) {
				t.Fatalf("bad event %+v", it)
			}
		}
	})
}
