// Package lockedio makes an io.Reader that is not safe for concurrent use
// (a seeded math/rand source, a bytes.Reader of test randomness) safe to
// share between goroutines, by reading it under a mutex. The change
// store and the change service read the random bits of their ids through
// it when a caller injects a source.
package lockedio

import (
	"io"
	"sync"
)

// NewReader returns a Reader that reads r under a mutex. A nil r gives
// nil.
func NewReader(r io.Reader) io.Reader {
	if r == nil {
		return nil
	}
	return &reader{r: r}
}

type reader struct {
	mu sync.Mutex
	r  io.Reader
}

func (l *reader) Read(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.r.Read(p)
}
