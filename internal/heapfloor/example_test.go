package heapfloor_test

import (
	"fmt"

	"github.com/companyregistry/registry/internal/heapfloor"
)

// The GOGC that keeps the heap goal at a 24 MiB floor, for a process
// with 1 MiB of goroutine stacks and globals (the goal at GOGC=p is
// live + (live + 1 MiB) × p/100): 525 for a 3 MiB live heap (3 + 4 ×
// 5.25 = 24 MiB), 257 for 6 MiB (6 + 7 × 2.57); from 12 MiB the GOGC in
// force already gives 24 MiB or more.
func ExamplePercent() {
	for _, live := range []uint64{3 << 20, 6 << 20, 12 << 20, 40 << 20} {
		fmt.Println(live>>20, "MiB live:", heapfloor.Percent(live, 1<<20, 24<<20, 100))
	}
	// Output:
	// 3 MiB live: 525
	// 6 MiB live: 257
	// 12 MiB live: 100
	// 40 MiB live: 100
}
