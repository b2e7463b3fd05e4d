package changes_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/changes"
)

// TestReview_WatchEchoesPersonalNumber: a Swedish personal identity number
// given as an identifier of a watch is refused (invalid_id), but the
// error's message and details.invalid quote it back as written. The
// project's rule (doc/decisions.md, "Personal identity numbers"; package
// se's doc: it never reaches "a log line") and the house rule (no personal
// data in an error or a response) say the answer names the entry by its
// place, not the number: the Registry's own lookup and search refuse one
// without echoing it, and an error's message is what a caller's logs keep.
// Suggested fix: for a ProblemPersonalNumber reason, list the index and
// the reason only (no id), and leave the number out of the message.
func TestReview_WatchEchoesPersonalNumber(t *testing.T) {
	const pn = "198101052382" // the synthetic personnummer of the se tests
	f := newFixture(t)
	for _, req := range []changes.WatchRequest{
		{Country: "SE", IDs: []string{"5560160680", pn}, URL: "https://hooks.example.com/x"},
		{Country: "SE", IDs: []string{"19810105-2382"}, URL: "https://hooks.example.com/x"},
	} {
		_, err := f.svc.CreateWatch(context.Background(), owner, req)
		e := asError(t, err)
		if e.Code != registry.CodeInvalidID {
			t.Fatalf("%v: code %s, want invalid_id", req.IDs, e.Code)
		}
		b, _ := json.Marshal(e)
		digits := strings.NewReplacer("-", "").Replace(req.IDs[len(req.IDs)-1])
		got := map[string]bool{
			"message": strings.Contains(strings.ReplaceAll(e.Message, "-", ""), digits),
			"answer":  strings.Contains(strings.ReplaceAll(string(b), "-", ""), digits),
		}
		want := map[string]bool{"message": false, "answer": false}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%v: the personal number is quoted (-want +got):\n%s\nanswer: %s", req.IDs, diff, b)
		}
	}
}
