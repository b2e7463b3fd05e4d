package restserver_test

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// wireMessage is the error message of an answer's envelope.
func wireMessage(t *testing.T, res response) string {
	t.Helper()
	var env struct {
		Error struct {
			Code, Message string
		}
	}
	if err := json.Unmarshal(res.body, &env); err != nil {
		t.Fatalf("%d %s: %v", res.status, res.body, err)
	}
	return strconv.Itoa(res.status) + " " + env.Error.Code + " " + env.Error.Message
}

// TestUnknownMemberQuotedOnTheWire: an unknown member name of 39 to 45
// bytes ending in multi-byte runes is quoted whole up to 40 bytes, else
// cut before the rune the 40th byte would split, on the three bodies that
// name one (watch create, watch change, deadlines batch).
func TestUnknownMemberQuotedOnTheWire(t *testing.T) {
	t.Parallel()
	h := newChangeHarness(t, bothTokens())
	b := newHarness(t)
	a38 := strings.Repeat("a", 38)
	for _, tt := range []struct{ name, shown string }{
		{a38 + "é", a38 + "é"},               // 40 bytes: whole
		{a38[:37] + "é", a38[:37] + "é"},     // 39 bytes: whole
		{a38 + "aé", a38 + "a..."},           // 41: é would be split
		{a38 + "€", a38 + "..."},             // 41: € would be split
		{a38 + "a€", a38 + "a..."},           // 42
		{a38 + "😀", a38 + "..."},             // 42: 4-byte rune
		{a38 + "aa😀", a38 + "aa..."},         // 44: 4-byte rune starts at byte 40
		{a38[:36] + "😀é", a38[:36] + "😀..."}, // 42: 4-byte rune ends at 40
		{a38 + "éé€", a38 + "é..."},          // 45
		{a38 + "a\ufffd", a38 + "a..."},      // 42: U+FFFD is a valid rune
	} {
		q := strconv.Quote(tt.shown)
		create := h.call(t, "POST", "/v1/watches", erpToken, `{"country":"ZZ","ids":["123456"],"url":"https://h.example.com/x",`+strconv.Quote(tt.name)+`:1}`)
		patch := h.call(t, "PATCH", "/v1/watches/wch_x", erpToken, `{`+strconv.Quote(tt.name)+`:1}`)
		batch := b.post(t, batchPath, `{"ids":["123456"],`+strconv.Quote(tt.name)+`:1}`)
		got := []string{wireMessage(t, create), wireMessage(t, patch), wireMessage(t, batch)}
		want := []string{
			"400 bad_request The body has an unknown member " + q + "; the members are country, ids, kinds, url.",
			"400 bad_request The body has an unknown member " + q + "; the members are add_ids, remove_ids, kinds, url, disabled.",
			"400 bad_request The body has an unknown field " + q + "; only ids and today are accepted.",
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%q (%d bytes) (-want +got):\n%s", tt.name, len(tt.name), diff)
		}
	}
}

// TestReview_BatchUnknownFieldDependsOnMapOrder: a batch body with several
// unknown members names one picked by Go's map order, so the same body
// gets different messages; the watch bodies name the first in byte order.
func TestReview_BatchUnknownFieldDependsOnMapOrder(t *testing.T) {
	t.Parallel()
	b := newHarness(t)
	body := `{"ids":["123456"],"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8}`
	seen := map[string]bool{}
	for range 30 {
		seen[wireMessage(t, b.post(t, batchPath, body))] = true
	}
	want := map[string]bool{`400 bad_request The body has an unknown field "a"; only ids and today are accepted.`: true}
	if diff := cmp.Diff(want, seen); diff != "" {
		t.Errorf("30 posts of %s (-want +got):\n%s", body, diff)
	}
}
