package heapfloor_test

import (
	"fmt"

	"github.com/companyregistry/registry/internal/heapfloor"
)

// The GOGC that keeps the heap goal at a 24 MiB floor: for a 3 MiB live
// heap the runtime's 4 MiB × GOGC/100 minimum bounds it (600: 24 MiB);
// for 6 MiB the live heap does (300: 6 × 4 = 24 MiB); from 12 MiB the
// GOGC in force already gives 24 MiB or more.
func ExamplePercent() {
	for _, live := range []uint64{3 << 20, 6 << 20, 12 << 20, 40 << 20} {
		fmt.Println(live>>20, "MiB live:", heapfloor.Percent(live, 24<<20, 100))
	}
	// Output:
	// 3 MiB live: 600
	// 6 MiB live: 300
	// 12 MiB live: 100
	// 40 MiB live: 100
}
