package memstore_test

import (
	"testing"
	"time"

	"github.com/companyregistry/registry/changes"
	"github.com/companyregistry/registry/changes/storetest"
	"github.com/companyregistry/registry/internal/memstore"
)

// TestConformance runs the checks of the store conformance suite that the
// in-memory fake keeps (it does not validate its input, collapse
// duplicate ids, check cursors or prune as a real store does).
func TestConformance(t *testing.T) {
	storetest.RunSome(t, func(t *testing.T) changes.Store { return memstore.New(time.Now) },
		"BaselinesReplaceStale", "ApplyBaselines", "ApplyExpectMismatch", "ApplyExpectMatch", "ApplyExpectMissing", "ApplyExpectAbsent",
		"ApplyExpectRolesAndMisses", "ApplyRefusedWritesNoPurgeNorBaseline", "WatchedIDs", "WatchedAmong", "OldestSnapshot", "ApplyIdempotent", "ApplyFanOut", "ApplyPurge", "ApplyPurgeKeepsNoName",
		"FeedPaging", "FeedOnlyWhileWatched", "FeedOnlyKindsWanted", "CompanyChanges",
		"Claim", "ClaimLeaseExpires", "ClaimFairShare", "RecordAttempt", "DeliveriesAndRedeliver", "RedeliverWhileClaimed", "RedeliverAfterLeaseEnded", "RecordAttemptClaimLost",
		"RenewLease", "IDsNotTextNotFound", "RotateSecret", "RotateSecretWithinOverlap", "RotateSecretDropsExpired", "RotateSecretNotFound", "ConcurrentRotateAndClaim", "ApplyFenceHeld", "ApplyFenceNeverTaken", "ApplyFenceTakenOver", "ApplyNoFence", "ConcurrentApplyFence")
}
