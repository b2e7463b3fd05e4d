package mcpserver

import (
	"bytes"
	"strconv"
	"testing"
)

// BenchmarkReview_BatchLineQuadratic (rev-ids7, P1): sdkBatch checks each
// request of a batch line against every id before it (slices.Contains on
// m.keys), inside stdioIn's Read, before sdkIDs.addBatch refuses a batch
// of more than maxSDKIDs (4,096) requests anyway. The work per request
// grows with the batch: a batch of n requests costs n²/2 string
// comparisons, where the SDK's own reading of it (mcp ioConn.Read,
// msgBatch.unresolved, a map) is linear. A 16 MiB line holds ~450,000
// requests of `{"jsonrpc":"2.0","id":N,"method":"a"}`: minutes of CPU on
// the reader before the SDK reads a byte of it. Run
//
//	go test -run '^$' -bench BenchmarkReview_BatchLineQuadratic -benchtime 1x ./mcpserver
//
// and compare ns/request across the sizes: linear work keeps it flat.
func BenchmarkReview_BatchLineQuadratic(b *testing.B) {
	for _, n := range []int{4096, 16384, 65536} {
		var line bytes.Buffer
		line.WriteByte('[')
		for i := range n {
			if i > 0 {
				line.WriteByte(',')
			}
			line.WriteString(`{"jsonrpc":"2.0","id":` + strconv.Itoa(i+1) + `,"method":"a"}`)
		}
		line.WriteString("]\n")
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			for b.Loop() {
				if _, ok := plainLine(line.Bytes()); !ok {
					b.Fatal("not read as a batch")
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/request")
		})
	}
}
