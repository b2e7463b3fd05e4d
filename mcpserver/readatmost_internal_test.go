package mcpserver

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/google/go-cmp/cmp"
)

// TestReadAtMost checks readAtMost against what it replaces,
// buf.ReadFrom(io.LimitReader(r, limit)): the bytes read and the error, for
// bodies below, at and above the limit, read whole or a byte at a time, and
// for a reader that fails.
func TestReadAtMost(t *testing.T) {
	t.Parallel()
	fail := errors.New("connection reset")
	long := strings.Repeat("0123456789", 2000) // 20,000 bytes, beyond bytes.MinRead
	type result struct {
		Got string
		Err string
	}
	for name, c := range map[string]struct {
		r     func() io.Reader
		limit int
	}{
		"empty":          {func() io.Reader { return strings.NewReader("") }, 100},
		"below":          {func() io.Reader { return strings.NewReader(long) }, 30000},
		"at":             {func() io.Reader { return strings.NewReader(long) }, len(long)},
		"above":          {func() io.Reader { return strings.NewReader(long) }, 16<<10 + 1},
		"byte at a time": {func() io.Reader { return iotest.OneByteReader(strings.NewReader(long[:1000])) }, 600},
		"data and EOF":   {func() io.Reader { return iotest.DataErrReader(strings.NewReader(long[:700])) }, 1000},
		"error":          {func() io.Reader { return io.MultiReader(strings.NewReader(long[:900]), iotest.ErrReader(fail)) }, 1000},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			errText := func(err error) string {
				if err == nil {
					return ""
				}
				return err.Error()
			}
			var want, got bytes.Buffer
			_, werr := want.ReadFrom(io.LimitReader(c.r(), int64(c.limit)))
			gerr := readAtMost(&got, c.r(), c.limit)
			if diff := cmp.Diff(result{want.String(), errText(werr)}, result{got.String(), errText(gerr)}); diff != "" {
				t.Errorf("(-ReadFrom(LimitReader) +readAtMost):\n%s", diff)
			}
		})
	}
}
