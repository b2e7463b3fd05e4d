package changes_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/companyregistry/registry/changes"
)

// TestReview_Last12SnapshotChangedErrorNamesNoWatch: 74f30bf took
// Batch.Unwatched out again, and with it the only way a watch stored
// could refuse a batch; SnapshotChangedError's doc now says it is only a
// replaced snapshot, but its message, changed by f540cad for Unwatched,
// still tells an operator "(a snapshot replaced, or a watch stored)".
func TestReview_Last12SnapshotChangedErrorNamesNoWatch(t *testing.T) {
	err := &changes.SnapshotChangedError{Companies: []changes.CompanyRef{{Country: "NO", CompanyID: "923609016"}}}
	got := map[string]bool{"message names a watch stored": strings.Contains(err.Error(), "watch")}
	if diff := cmp.Diff(map[string]bool{"message names a watch stored": false}, got); diff != "" {
		t.Errorf("SnapshotChangedError.Error() = %q (-want +got):\n%s", err.Error(), diff)
	}
}
