package no

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The module keeps the register's order (the Registry ranks); total from
// page.totalElements; truncated when total exceeds the hits; a hint only on
// zero hits.
func TestSearchResultOrderAndTotals(t *testing.T) {
	t.Parallel()
	page := func(total int, names ...string) *searchPage {
		var items []string
		ids := []string{"923609016", "974760673", "991825827", "934154150", "121212129"}
		for i, n := range names {
			items = append(items, fmt.Sprintf(`{"organisasjonsnummer":%q,"navn":%q}`, ids[i], n))
		}
		var p searchPage
		body := fmt.Sprintf(`{"_embedded":{"enheter":[%s]},"page":{"totalElements":%d}}`, strings.Join(items, ","), total)
		if err := json.Unmarshal([]byte(body), &p); err != nil {
			t.Fatal(err)
		}
		return &p
	}
	type hit struct {
		ID         string
		Confidence float64
	}
	hits := func(p *searchPage, q string, limit int) ([]hit, int, bool, bool) {
		res := searchResult(p, q, limit)
		var out []hit
		for _, h := range res.Hits {
			out = append(out, hit{h.ID, h.Confidence})
		}
		return out, res.Total, res.Truncated, res.Hint != nil
	}

	got, total, truncated, hinted := hits(page(57, "STATOIL FUEL", "EQUINOR ENERGY AS", "NORSK EQUINOR", "EQUINOR", "EQUINOR ASA"), "equinor", 5)
	want := []hit{{"923609016", 0.5}, {"974760673", 0.5}, {"991825827", 0.5}, {"934154150", 0.5}, {"121212129", 0.5}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("hits mismatch (-want +got):\n%s", diff)
	}
	if total != 57 || !truncated || hinted {
		t.Errorf("total, truncated, hint = %d, %t, %t; want 57, true, false", total, truncated, hinted)
	}

	got, total, truncated, hinted = hits(page(2, "A AS", "B AS"), "c", 1)
	if len(got) != 1 || total != 2 || !truncated || hinted {
		t.Errorf("limit 1: hits %v, total %d, truncated %t, hint %t; want 1 hit, 2, true, false", got, total, truncated, hinted)
	}

	var empty searchPage
	if err := json.Unmarshal(recording(t, "search_enheter_empty_2025-02.json"), &empty); err != nil {
		t.Fatal(err)
	}
	res := searchResult(&empty, "foobarbaz", 10)
	if len(res.Hits) != 0 || res.Hits == nil || res.Total != 0 || res.Truncated || res.Hint == nil ||
		!strings.Contains(*res.Hint, "AS, ASA or NUF") {
		t.Errorf("zero hits: %+v, want [] hits, total 0, not truncated, and a hint naming AS, ASA or NUF", res)
	}
}

// Hits without a valid organisation number or a name are dropped.
func TestSearchDropsUnusableHits(t *testing.T) {
	t.Parallel()
	var p searchPage
	body := `{"_embedded":{"enheter":[{"organisasjonsnummer":"923609017","navn":"BAD CHECK"},{"navn":"NO ID"},
		{"organisasjonsnummer":"923609016","navn":""},{"organisasjonsnummer":"923609016","navn":"EQUINOR ASA"}]},"page":{"totalElements":4}}`
	if err := json.Unmarshal([]byte(body), &p); err != nil {
		t.Fatal(err)
	}
	res := searchResult(&p, "equinor", 10)
	if len(res.Hits) != 1 || res.Hits[0].ID != "923609016" {
		t.Errorf("hits = %+v, want only 923609016", res.Hits)
	}
}
