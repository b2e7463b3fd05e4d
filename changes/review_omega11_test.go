package changes_test

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/changes"
	"github.com/companyregistry/registry/idcheck"
)

// TestReview_Omega11QuoteRenderedAsPersonalNumber: canonicalIDs checks the
// raw quote ops.Shown(id) for a personal number's form, but the message
// carries it through %q, which writes an invalid byte as \xHH. Byte 0x81
// before "01052382" is no personal number raw (8 digits), yet the message
// then reads ...\x8101052382..., whose "8101052382" the same rule calls a
// personal identity number. Suggested fix: check the rendered quote
// (strconv.Quote(t)) too, or build the message from it.
func TestReview_Omega11QuoteRenderedAsPersonalNumber(t *testing.T) {
	id := "\x81" + "01052382"
	if idcheck.ContainsPersonalNumber(id) {
		t.Fatal("the input itself holds a personal number by the rule: the proof needs one that does not")
	}
	f := newFixture(t)
	_, err := f.svc.CreateWatch(context.Background(), owner,
		changes.WatchRequest{Country: "SE", IDs: []string{id}, URL: "https://hooks.example.com/x"})
	e := asError(t, err)
	if e.Code != registry.CodeInvalidID {
		t.Fatalf("code %s, want invalid_id", e.Code)
	}
	if diff := cmp.Diff(false, idcheck.ContainsPersonalNumber(e.Message)); diff != "" {
		t.Errorf("a personal number by idcheck's rule in the message (-want +got):\n%s\nmessage: %s", diff, e.Message)
	}
}
