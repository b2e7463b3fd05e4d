package nameindex

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestReview_SixWordsLastRepeatedDropsAWord: Search's doc says a word
// written twice is searched once and only a query of more than
// maxSearchWords (6) distinct words loses words. A query of exactly six
// distinct words whose last word repeats an earlier one ("alfa … zeta
// alfa") keeps the repeated last word in a slot of its own, so the sixth
// distinct word ("zeta") is dropped: the total and the hits then count a
// name without "zeta", which the same words without the repetition (and
// the code before 1ce3211, every word ANDed) do not. Suggested fix: skip
// the last word among the earlier ones (its prefix match covers it), or
// count distinct words including the last before cutting.
func TestReview_SixWordsLastRepeatedDropsAWord(t *testing.T) {
	t.Parallel()
	x := build(t,
		`5560160680;Alfa Beta Gamma Delta Epsilon Zeta AB;AB;`, // every word
		`5561112227;Alfa Beta Gamma Delta Epsilon Eta AB;AB;`,  // no "zeta"
	)
	type result struct {
		Total int
		IDs   []string
	}
	run := func(q string) result {
		hits, total := search(t, x, q, 10)
		r := result{Total: total}
		for _, h := range hits {
			r.IDs = append(r.IDs, h.ID)
		}
		return r
	}
	want := run("alfa beta gamma delta epsilon zeta")
	if diff := cmp.Diff(result{Total: 1, IDs: []string{"5560160680"}}, want); diff != "" {
		t.Fatalf("the six words once (-want +got):\n%s", diff)
	}
	got := run("alfa beta gamma delta epsilon zeta alfa")
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("the same six words, the first repeated last (-want +got):\n%s", diff)
	}
}
