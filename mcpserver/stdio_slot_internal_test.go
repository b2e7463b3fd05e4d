package mcpserver

import (
	"strings"
	"testing"
)

// TestSDKIDsSlotBoundsKeys (rev-ids7, P2): sdkIDs keeps an id key longer
// than maxSlotKey as its digest, so an entry holds at most maxSlotKey
// bytes of key whatever the id's length, and still counts the SDK's
// answer to it (the answer's id as the SDK writes it, alone or in a
// batch's answer); a fast path's id is its own slot.
func TestSDKIDsSlotBoundsKeys(t *testing.T) {
	t.Parallel()
	long := `"` + strings.Repeat("x", 1<<20) + `"`
	other := `"` + strings.Repeat("x", 1<<20-1) + `y"`
	for _, key := range []string{long, other, `"` + strings.Repeat("a", 65) + `"`} {
		if s := slot(key); len(s) > maxSlotKey || slot(s) != s || string(slotBytes([]byte(key))) != s {
			t.Errorf("slot of a %d-byte key: %d bytes, idempotent %v", len(key), len(s), slot(s) == s)
		}
	}
	if slot(long) == slot(other) {
		t.Error("two long keys share a slot")
	}
	for _, id := range []string{`"` + strings.Repeat("a", 64) + `"`, `123456789012345`} {
		if slot(id) != id {
			t.Errorf("the fast id %s is not its own slot", id)
		}
	}
	c := newSDKIDs()
	c.add(long, true)
	c.add(other, true)
	if !c.busy(long) || !c.busy(other) {
		t.Fatal("a long id is not counted")
	}
	held := 0
	for k := range c.n {
		held += len(k)
	}
	if held > 2*maxSlotKey {
		t.Errorf("two ids of 1 MiB hold %d bytes of keys", held)
	}
	answer(c, long)
	for _, key := range batchAnswerIDs([]byte(`[{"jsonrpc":"2.0","id":` + other + `,"result":{}}]`)) {
		answer(c, key)
	}
	if c.busy(long) || c.busy(other) {
		t.Error("the answers to the long ids were not counted")
	}
	select {
	case <-c.settled():
	default:
		t.Error("answers still owed")
	}
}
