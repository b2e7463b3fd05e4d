package se

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/internal/moduletest"
)

// TestReview_SESearchDecomposedLettersFindNothing: a name typed with
// decomposed letters (a + U+0308 for ä, o + U+0308 for ö: what macOS
// keyboards and many PDFs produce) is the same Unicode text as the
// precomposed one, yet the bulk-file search finds nothing for it and
// answers "Nothing matches this name", while the precomposed spelling finds
// the housing association with confidence 0.95. Neither the name index nor
// the Registry brings the query to NFC before matching.
func TestReview_SESearchDecomposedLettersFindNothing(t *testing.T) {
	t.Parallel()
	r := moduletest.NewRegistry(t, build(t, newRegister(t)), registry.WithClock(fixedNow))
	type hit struct {
		ID         string
		Confidence float64
	}
	search := func(q string) []hit {
		res, err := r.Search(t.Context(), "SE", q, 10)
		if err != nil {
			t.Fatalf("Search(%q): %v", q, err)
		}
		out := []hit{}
		for _, h := range res.Hits {
			out = append(out, hit{h.ID, h.Confidence})
		}
		return out
	}
	nfc := search("Bostadsr\u00e4ttsf\u00f6reningen Exempel")
	if diff := cmp.Diff([]hit{{"7164445558", 0.95}}, nfc); diff != "" {
		t.Fatalf("precomposed query (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(nfc, search("Bostadsra\u0308ttsfo\u0308reningen Exempel")); diff != "" {
		t.Errorf("decomposed spelling of the same name (-precomposed +decomposed):\n%s", diff)
	}
}
