package ingest

import (
	"context"
	"time"
)

// Defaults of the options.
const (
	// DefaultInterval is how often the Leader reads the feeds and runs the
	// pollers (REGISTRY_CHANGES_INTERVAL).
	DefaultInterval = time.Minute
	// DefaultPollInterval is how often a Poller fetches each watched
	// company (REGISTRY_WATCH_POLL_INTERVAL).
	DefaultPollInterval = 24 * time.Hour
	// DefaultLeaseTTL is how long the ingesters' lease holds without a
	// renewal.
	DefaultLeaseTTL = 30 * time.Second
	// DefaultPageSize is how many updates one read of a Norwegian feed
	// asks for.
	DefaultPageSize = 1000
	// DefaultFlushEvery is how often a stream's progress is stored.
	DefaultFlushEvery = 5 * time.Second
	// DefaultIdleTimeout is how long a stream may be silent, heartbeats
	// included, before it is reconnected (Companies House sends a
	// heartbeat about every 30 seconds), and how long the answer's headers
	// are waited for.
	DefaultIdleTimeout = 90 * time.Second
	// DefaultMaxLine bounds one line of a stream.
	DefaultMaxLine = 1 << 20
)

// Ingester finds the changes of one register's companies. The [Leader]
// calls Sync every interval while it holds the lease, one ingester after
// the other; now is the Leader's clock. Sync stores what it found through
// [Apply] with the ctx it was given (so that the Leader's lease fences
// the write) and returns an error only for a failure worth a warning; a
// register's budget running out is not one (the work resumes at the next
// call).
type Ingester interface {
	// Name names the ingester in logs, such as "NO/feeds".
	Name() string
	Sync(ctx context.Context, now time.Time) error
}

// Streamer is an [Ingester] that also holds long-lived connections: the
// Leader runs Run in a goroutine of its own while it holds the lease,
// beside the calls of Sync, and cancels ctx when it loses the lease or
// stops. Run stores what it found through [Apply] with its ctx, as Sync
// does, and returns when ctx ends.
type Streamer interface {
	Ingester
	Run(ctx context.Context) error
}
