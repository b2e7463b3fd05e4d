package mcpserver

import (
	"bytes"
	"strconv"
	"testing"
)

// batchOf returns a batch line of n ping requests with the ids 1..n, then
// the elements more.
func batchOf(n int, more ...string) []byte {
	var b bytes.Buffer
	b.WriteByte('[')
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"jsonrpc":"2.0","id":` + strconv.Itoa(i+1) + `,"method":"ping"}`)
	}
	for _, m := range more {
		b.WriteString("," + m)
	}
	b.WriteByte(']')
	return b.Bytes()
}

// TestSDKBatchReadBounded (rev-ids7, P1; BenchmarkReview_BatchLineQuadratic
// is its timing): stdioIn reads a batch line inside Read, before the SDK
// gets it, so its work must not grow with the square of the batch. A batch
// of more requests than sdkIDs counts (maxSDKIDs) is read only up to its
// maxSDKIDs+1st element, marked over and not counted (stdioIn stops
// counting on it, as sdkIDs.addBatch refused such a batch before); the
// elements after are not read at all (an element the SDK refuses there is
// not seen). Up to maxSDKIDs requests, every element is read and a
// duplicate id is still found, its last element included.
func TestSDKBatchReadBounded(t *testing.T) {
	t.Parallel()
	for _, n := range []int{maxSDKIDs + 1, 4 * maxSDKIDs} {
		m, read, ok := sdkBatchRead(batchOf(n, `1`))
		if !ok || !m.over || m.keys != nil || read != maxSDKIDs+1 {
			t.Errorf("batch of %d requests: ok %v, over %v, %d keys, %d elements read; want ok, over, no keys, %d read",
				n, ok, m.over, len(m.keys), read, maxSDKIDs+1)
		}
		if count := (&stdioIn{ids: newSDKIDs()}).count(m); count {
			t.Errorf("batch of %d requests: counted", n)
		}
	}
	m, read, ok := sdkBatchRead(batchOf(maxSDKIDs))
	if !ok || m.over || len(m.keys) != maxSDKIDs || read != maxSDKIDs {
		t.Errorf("batch of maxSDKIDs requests: ok %v, over %v, %d keys, %d read", ok, m.over, len(m.keys), read)
	}
	dup := `{"jsonrpc":"2.0","id":1.0,"method":"ping"}` // id 1 to the SDK
	if _, read, ok := sdkBatchRead(batchOf(maxSDKIDs-1, dup)); ok || read != maxSDKIDs {
		t.Errorf("batch with a duplicate id last: ok %v after %d elements; the SDK refuses it", ok, read)
	}
}
