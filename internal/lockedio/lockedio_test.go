package lockedio_test

import (
	"io"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/companyregistry/registry/internal/lockedio"
)

// unsafeCounter is a source that is not safe for concurrent use: each
// Read fills p with the next values of a counter. Read concurrently
// without the lock, the race detector reports it, and values repeat.
type unsafeCounter struct{ n byte }

func (c *unsafeCounter) Read(p []byte) (int, error) {
	for i := range p {
		c.n++
		p[i] = c.n
	}
	return len(p), nil
}

// TestNewReaderShared: 8 goroutines reading one byte 30 times each get
// the 240 values 1..240 once each (run with -race: no data race).
func TestNewReaderShared(t *testing.T) {
	r := lockedio.NewReader(&unsafeCounter{})
	var mu sync.Mutex
	seen := map[byte]int{}
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 30 {
				var b [1]byte
				if _, err := io.ReadFull(r, b[:]); err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				seen[b[0]]++
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	want := map[byte]int{}
	for i := 1; i <= 240; i++ {
		want[byte(i)] = 1
	}
	if diff := cmp.Diff(want, seen); diff != "" {
		t.Errorf("values read (-want +got):\n%s", diff)
	}
}

// TestNewReaderNil: a nil source stays nil, so that a caller's "no
// source given" test keeps working.
func TestNewReaderNil(t *testing.T) {
	if r := lockedio.NewReader(nil); r != nil {
		t.Errorf("NewReader(nil) = %v, want nil", r)
	}
}
