package bulkfile

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestReview_Final12HeaderStopsAtTheSeparatorThatPassesTheBound
// (rev-final12): 0aef978 says the header is refused "at the separator that
// passes 256 columns" (doc/decisions.md: "stops reading it at the
// separator that passes the bound"). The 256th separator is that one: the
// header then has at least 257 columns. The reader counts only the fields
// closed so far and stops at the 257th separator, so a source that has
// sent 256 separators and then fails is answered with its own failure,
// not the columns' FormatError (the 257th and 300th separators both are).
func TestReview_Final12HeaderStopsAtTheSeparatorThatPassesTheBound(t *testing.T) {
	want := map[int]string{}
	got := map[int]string{}
	for _, seps := range []int{MaxColumns, MaxColumns + 1} {
		_, err := NewReader(io.MultiReader(strings.NewReader(strings.Repeat(";", seps)), failingReader{}))
		want[seps] = fmt.Sprintf("bulk file: line 1: the header has more than %d columns", MaxColumns)
		var fe *FormatError
		if errors.As(err, &fe) {
			got[seps] = fe.Error()
		} else {
			got[seps] = fmt.Sprint("not a FormatError: ", err)
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("NewReader of N separators, then a failing source (-want +got):\n%s", diff)
	}
}
