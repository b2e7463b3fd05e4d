package changes_test

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/companyregistry/registry/changes"
)

// TestNewID: a ULID after the prefix (https://github.com/ulid/spec: 48
// bits of Unix milliseconds, 80 random bits, Crockford's base32). The time
// part 01ARYZ6S41 is 1469918176385 written in ten base32 digits, computed
// apart from this code; then the extremes.
func TestNewID(t *testing.T) {
	t.Parallel()
	id, err := changes.NewID("chg_", time.UnixMilli(1469918176385), bytes.NewReader(make([]byte, 10)))
	if err != nil || id != "chg_01ARYZ6S410000000000000000" {
		t.Errorf("NewID = %q, %v", id, err)
	}
	id, _ = changes.NewID("", time.UnixMilli(1<<48-1), bytes.NewReader(bytes.Repeat([]byte{0xff}, 10)))
	if id != "7ZZZZZZZZZZZZZZZZZZZZZZZZZ" {
		t.Errorf("max = %q", id)
	}
	a, _ := changes.NewID("x", time.UnixMilli(1000), nil)
	b, _ := changes.NewID("x", time.UnixMilli(1001), nil)
	if !(a < b) || len(a) != 27 {
		t.Errorf("%q then %q do not sort by time", a, b)
	}
	if _, err := changes.NewID("x", time.Now(), bytes.NewReader(nil)); err == nil {
		t.Error("an empty random source gave an id")
	}
}

// TestWebhookBody: the Standard Webhooks payload shape of the issue, with
// the feed item as data.
func TestWebhookBody(t *testing.T) {
	t.Parallel()
	name := "EQUINOR ASA"
	src := "https://data.brreg.no/enhetsregisteret/api/enheter/923609016"
	reg := time.Date(2026, 1, 14, 0, 0, 0, 0, time.UTC)
	c := changes.Change{ID: "chg_01KDXR4N2Y8W5M9Q3T7V6B1C0D", Country: "NO", CompanyID: "923609016", CompanyName: &name,
		Kind: changes.KindNameChanged, Old: json.RawMessage(`"STATOIL ASA"`), New: json.RawMessage(`"EQUINOR ASA"`),
		RegisteredAt: &reg, DetectedAt: time.Date(2026, 1, 15, 10, 0, 0, 0, time.FixedZone("CET", 3600)), SourceURL: &src,
		Seq: 7, SourceEventID: "25152016"}
	b, err := changes.WebhookBody(c)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"type":"company.name_changed","timestamp":"2026-01-15T09:00:00Z","data":{"id":"chg_01KDXR4N2Y8W5M9Q3T7V6B1C0D",` +
		`"country":"NO","company_id":"923609016","company_name":"EQUINOR ASA","kind":"name_changed","old":"STATOIL ASA",` +
		`"new":"EQUINOR ASA","registered_at":"2026-01-14T00:00:00Z","detected_at":"2026-01-15T09:00:00Z",` +
		`"source_url":"https://data.brreg.no/enhetsregisteret/api/enheter/923609016"}}`
	if diff := cmp.Diff(want, string(b)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	b, _ = changes.WebhookBody(changes.Change{ID: "chg_x", Kind: changes.KindDeleted, DetectedAt: time.Unix(0, 0)})
	if !bytes.Contains(b, []byte(`"company_name":null,"kind":"deleted","old":null,"new":null,"registered_at":null`)) {
		t.Errorf("nulls: %s", b)
	}
}
