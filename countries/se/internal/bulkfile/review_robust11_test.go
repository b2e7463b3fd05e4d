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
