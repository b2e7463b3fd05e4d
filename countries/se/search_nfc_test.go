package se

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestSearchDecomposedQuery: the module's own search (before the Registry
// ranks it) finds with a query typed in decomposed letters (NFD: a + U+0308,
// o + U+0308) what the precomposed query finds, whole or as the start of
// the name, and echoes the query as given.
func TestSearchDecomposedQuery(t *testing.T) {
	t.Parallel()
	c := build(t, newRegister(t))
	type result struct {
		Query string
		Hits  []string // id and name
		Total int
	}
	for _, c2 := range []struct{ query, want string }{
		{"Bostadsra\u0308ttsfo\u0308reningen Exempel", "7164445558 Bostadsr\u00e4ttsf\u00f6reningen Exempel"},
		{"bostadsra\u0308tt", "7164445558 Bostadsr\u00e4ttsf\u00f6reningen Exempel"},
	} {
		res, err := c.Search(t.Context(), c2.query, 10)
		if err != nil {
			t.Fatalf("Search(%+q): %v", c2.query, err)
		}
		got := result{Query: res.Query, Total: res.Total, Hits: []string{}}
		for _, h := range res.Hits {
			got.Hits = append(got.Hits, h.ID+" "+h.Name)
		}
		if diff := cmp.Diff(result{c2.query, []string{c2.want}, 1}, got); diff != "" {
			t.Errorf("Search(%+q) (-want +got):\n%s", c2.query, diff)
		}
	}
}
