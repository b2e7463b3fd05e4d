package bulkfile

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestReview_RecordBoundCountsSeparators: the package promises that a
// record over MaxRecordBytes (1 MiB) is refused, in bounded memory. The
// bound is checked against r.buf only, and a field separator (';') adds a
// span but no byte to r.buf, so a line of 2 MiB of semicolons is read to
// its end: 2 Mi spans (16 bytes each) and 2 Mi field slices (24 bytes
// each) are allocated, growing by doubling, before the record is refused
// for its field count. A line of the file's 8 GiB limit would ask for
// hundreds of GiB. Suggested fix: count a separator (and any byte read)
// toward the record's bound, not only the bytes kept.
func TestReview_RecordBoundCountsSeparators(t *testing.T) {
	line := strings.Repeat(";", 2*MaxRecordBytes)
	text := header + "\n" + line + "\n"
	rd, err := NewReader(strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err = rd.Next()
	runtime.ReadMemStats(&after)
	allocated := after.TotalAlloc - before.TotalAlloc

	var fe *FormatError
	if !errors.As(err, &fe) {
		t.Fatalf("error %v, want a *FormatError", err)
	}
	want := &FormatError{Line: 2, Msg: fmt.Sprintf("a record is longer than %d bytes", MaxRecordBytes)}
	if diff := cmp.Diff(want, fe); diff != "" {
		t.Errorf("a record of %d bytes (-want +got):\n%s", len(line), diff)
	}
	// The record's bound and the reader's 64 KiB buffer, with room to
	// spare: four times the bound.
	if limit := uint64(4 * MaxRecordBytes); allocated > limit {
		t.Errorf("reading one record of %d bytes allocated %d bytes, more than %d (4 x MaxRecordBytes)", len(line), allocated, limit)
	}
}

// TestHeaderColumnsBounded: a header line of separators is refused for its
// column count (the file has eleven columns; MaxColumns is the bound), in
// memory bounded by the record's bytes: the header keeps at most
// MaxColumns+1 fields, where it kept one per separator (273 MB allocated
// for a line of 1 MiB before the bound). At the bound the header is read.
func TestHeaderColumnsBounded(t *testing.T) {
	extra := func(n int) string { // n more distinct columns
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, ";extra%d", i)
		}
		return b.String()
	}
	for name, tc := range map[string]struct {
		line string
		want *FormatError
	}{
		"a line of separators": {strings.Repeat(";", MaxRecordBytes-1),
			&FormatError{Line: 1, Msg: fmt.Sprintf("the header has more than %d columns", MaxColumns)}},
		"one column past the bound": {header + extra(MaxColumns-11+1),
			&FormatError{Line: 1, Msg: fmt.Sprintf("the header has more than %d columns", MaxColumns)}},
		"at the bound": {header + extra(MaxColumns-11), nil},
	} {
		t.Run(name, func(t *testing.T) {
			runtime.GC()
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			_, err := NewReader(strings.NewReader(tc.line + "\n"))
			runtime.ReadMemStats(&after)
			var got *FormatError
			if err != nil && !errors.As(err, &got) {
				t.Fatalf("error %v, want a *FormatError or none", err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("a header of %d bytes (-want +got):\n%s", len(tc.line), diff)
			}
			if limit := uint64(4 * MaxRecordBytes); after.TotalAlloc-before.TotalAlloc > limit {
				t.Errorf("reading the header allocated %d bytes, more than %d (4 x MaxRecordBytes)", after.TotalAlloc-before.TotalAlloc, limit)
			}
		})
	}
}
