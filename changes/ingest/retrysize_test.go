package ingest

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"
)

// TestStoredRetriesSize backs the bound doc/decisions.md gives ("The
// retries of internal_error are stored with the cursors"): a stored
// Norway retry takes at most 165 bytes (10,000 of them about 1.6 MB), a
// sweep's retry in the poller's cursor at most 15, with the longest
// values the fields take: a nine-digit organisation number, times with
// nanoseconds and a zone offset, the longest feed's event id, attempts
// at the cap; a British company number is eight characters.
func TestStoredRetriesSize(t *testing.T) {
	t.Parallel()
	const n = 10_000
	zone := time.FixedZone("", 2*3600)
	published := time.Date(2026, 12, 31, 23, 59, 59, 999_999_999, zone)
	list := make([]heldItem, n)
	sweep := make(map[string]int, n)
	for i := range list {
		p := published
		list[i] = heldItem{orgnr: fmt.Sprintf("9%08d", i), published: &p, seen: published,
			eventID: fmt.Sprintf("underenheter/%d", 9_000_000_000+i), attempts: internalAttempts - 1}
		sweep[fmt.Sprintf("SC%06d", i)] = internalAttempts - 1
	}
	v, err := encodeRetries(list)
	if err != nil {
		t.Fatal(err)
	}
	if per := len(v) / n; per > 165 {
		t.Errorf("a stored Norway retry takes %d bytes, the documented bound is 165", per)
	}
	b, err := json.Marshal(pollState{Last: published, Retry: sweep})
	if err != nil {
		t.Fatal(err)
	}
	if per := len(b) / n; per > 15 {
		t.Errorf("a sweep's stored retry takes %d bytes, the documented bound is 15", per)
	}
}
