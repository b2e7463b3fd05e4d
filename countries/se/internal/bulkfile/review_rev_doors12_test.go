package bulkfile

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestReview_Doors12HeaderRefusedAsSoonAsPastTheBound (rev-doors12):
// 8892327 documents MaxColumns as "a header with more is refused as soon
// as its count passes the bound" (and the CHANGELOG, "as soon as its
// count passes the bound"). NewReader reads the whole header line first
// (up to MaxRecordBytes) and checks the count after it: a source that
// has sent 300 separators and then fails is answered with its own
// failure, not the columns' FormatError. Memory is bounded (the fields
// kept stop at MaxColumns+1); the wording promises more than the code.
func TestReview_Doors12HeaderRefusedAsSoonAsPastTheBound(t *testing.T) {
	src := io.MultiReader(strings.NewReader(strings.Repeat(";", 300)), failingReader{})
	_, err := NewReader(src)
	var got *FormatError
	if !errors.As(err, &got) {
		t.Fatalf("NewReader: %v, want the columns' *FormatError once the count passed %d", err, MaxColumns)
	}
	want := &FormatError{Line: 1, Msg: fmt.Sprintf("the header has more than %d columns", MaxColumns)}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

type failingReader struct{}

func (failingReader) Read([]byte) (int, error) {
	return 0, errors.New("read past the 257th column")
}
