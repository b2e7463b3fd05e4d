package fakeclock_test

import (
	"testing"
	"time"

	"github.com/companyregistry/registry/internal/fakeclock"
)

func TestAdvance(t *testing.T) {
	t.Parallel()
	start := time.Date(2026, 1, 15, 9, 0, 0, 0, time.UTC)
	c := fakeclock.New(start)
	c.Advance(time.Hour)
	if got := c.Now(); !got.Equal(start.Add(time.Hour)) {
		t.Errorf("Now = %v", got)
	}
}
