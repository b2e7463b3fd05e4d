package mcpserver

import (
	"strconv"
	"testing"
)

// BenchmarkReview_MakeRoomHostileFullTable (rev-room9) measures what
// sdkIDs.makeRoom costs a request in the session its doc bounds ("at most
// maxSDKIDs entries for a request"): each iteration is a call with a new
// id, its duplicate sent while it runs (refused) and the call's answer,
// which leaves the id counted only for the duplicate. "one-droppable": the
// table holds maxSDKIDs-1 calls that stay in flight (slow calls or
// subscriptions/listen), so each new id scans for the single droppable id
// left by the iteration before; "all-droppable": the same requests on a
// table with nothing else in flight, where once it is full every entry is
// droppable and the scan stops at the first.
func BenchmarkReview_MakeRoomHostileFullTable(b *testing.B) {
	for _, tc := range []struct {
		name     string
		inFlight int
	}{{"one-droppable", maxSDKIDs - 1}, {"all-droppable", 0}} {
		b.Run(tc.name, func(b *testing.B) {
			c := newSDKIDs()
			for i := range tc.inFlight {
				c.add("f"+strconv.Itoa(i), true)
			}
			keys := make([]string, b.N)
			for i := range keys {
				keys[i] = "k" + strconv.Itoa(i)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := range b.N {
				k := keys[i]
				if !c.add(k, true) {
					b.Fatalf("request %d not counted", i)
				}
				c.add(k, true) // refused duplicate
				answer(c, k)
			}
		})
	}
}
