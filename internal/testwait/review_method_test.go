package testwait_test

import (
	"sync"
	"testing"

	"github.com/companyregistry/registry/internal/testwait"
)

type parker struct{ c chan struct{} }

func (p *parker) park() { <-p.c }

// TestReview_BlockedInAMethod: Blocked's doc names a method as
// "pkg.(*T).M"; a goroutine blocked in one is counted under that name.
func TestReview_BlockedInAMethod(t *testing.T) {
	t.Parallel()
	p := &parker{c: make(chan struct{})}
	var wg sync.WaitGroup
	t.Cleanup(func() { close(p.c); wg.Wait() })
	wg.Go(p.park)
	const fn = "github.com/companyregistry/registry/internal/testwait_test.(*parker).park"
	testwait.Blocked(t, fn, 1)
}
