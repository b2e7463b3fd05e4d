// Package sqlstore is the [changes.Store] of change monitoring on an
// embedded SQLite file (pure Go, no cgo) or on PostgreSQL.
//
// Open a store with [OpenSQLite] (a file, created with its folder when
// missing; by convention [FileName] in the service's data folder) or
// [OpenPostgres] (a postgres:// URL, as in DATABASE_URL), or with [Open],
// which chooses by the name's form. Opening brings the schema up to date;
// [Migrate] does only that, for a deployment that migrates as a separate
// step (`go run ./internal/cmd/migrate -database "$DATABASE_URL"`).
// Replicas that start at once on one PostgreSQL database migrate one after
// the other.
//
// Both databases keep the same tables and give the same answers (the
// conformance suite changes/storetest runs on both):
//
//   - Apply records a batch in one transaction: the changes (once per
//     source event), the owners' feed entries, a delivery per enabled
//     watch that wants the kind (the outbox), the snapshots, the baselines
//     (only where a company has none) and the ingesters' cursors.
//   - CreateWatch and UpdateWatch keep a baseline where its company has no
//     snapshot or a stale one (no watch holds it), deciding in their own
//     transaction: on PostgreSQL the baselines' snapshot rows are locked
//     FOR UPDATE before the holders are read, so two replicas storing
//     watches of one company at once do not both judge it stale. Prune
//     removes the stale snapshots in a transaction that first takes SHARE
//     on watch_companies, so it never removes the snapshot of a company a
//     watch committed meanwhile holds.
//   - The feed cursor is opaque (a position in the store's feed with a
//     checksum), survives restarts, and is refused with
//     [changes.ErrInvalidCursor] when garbled or ahead of the feed (a
//     cursor of another database, or of this one before a restore from a
//     backup); a cursor older than the
//     oldest change kept is a [*changes.CursorExpiredError]. Changes are
//     kept at least [DefaultRetention] (30 days; [WithRetention]).
//   - ClaimDeliveries hands a due delivery to one worker at a time, across
//     replicas, until its lease ends; a worker that dies leaves it to be
//     claimed and sent again, with the same webhook-id.
//   - The Store is a [changes.SecretRotator]: RotateSecret is one UPDATE
//     that makes the new key current and the replaced one the newest
//     previous key (with its end), keeping the newest earlier one that
//     has not ended (two previous keys at most,
//     [changes.MaxPreviousSecrets]), and ClaimDeliveries reads every key
//     in the statement that reads the secret, so a claim sees the keys
//     before or after a rotation, never between.
//   - AcquireLease is one atomic statement: take a free or expired lease,
//     or renew one's own. RenewLease is one too, and only extends a lease
//     whose stored holder is the caller: it never takes a free one.
//   - A batch fenced by a lease ([changes.Batch.Lease]) is written only
//     while the lease's stored holder is the fence's; otherwise Apply
//     writes nothing and returns [changes.ErrLeaseLost]. The holder is
//     read in Apply's own transaction before anything is written. On
//     PostgreSQL that read locks the lease row (SELECT … FOR SHARE) until
//     the Apply commits: another replica's AcquireLease or ReleaseLease,
//     which updates or deletes the row, waits for the Apply to commit;
//     and an Apply that comes while such a change of the holder is not yet
//     committed waits for it and reads the new holder (read committed
//     reads the row's latest version after a lock wait). So every fenced
//     Apply that succeeds is ordered before the next holder takes the
//     lease. FOR SHARE and not FOR KEY SHARE: an update of the row's
//     holder does not change its key, and would not wait for a key-share
//     lock. Applies of one holder share the lock and go on side by side.
//     On SQLite, Apply, AcquireLease and ReleaseLease are write
//     transactions on one connection (BEGIN IMMEDIATE across processes),
//     so they are serial already.
//   - A batch that names the snapshots its changes were diffed against
//     ([changes.Batch.Expect]) is written only while each is still the
//     one stored; otherwise Apply writes nothing and returns a
//     [*changes.SnapshotChangedError]. The snapshots are read in Apply's
//     transaction before anything is written; on PostgreSQL the rows of
//     every company the batch expects or writes are locked FOR UPDATE, in
//     key order, as CreateWatch and UpdateWatch lock theirs, so that a
//     baseline stored meanwhile waits for the Apply or is seen by it, and
//     the two never deadlock. A company expected to have no snapshot has
//     no row to lock: its first snapshot is inserted only where there is
//     still none (ON CONFLICT DO NOTHING, which waits for another
//     transaction's uncommitted insert), and one found fails the Apply.
//   - DeleteWatch takes ROW EXCLUSIVE on watch_companies (the lock its
//     cascade takes) before it deletes the watch's row, as CreateWatch
//     does before any row and UpdateWatch before its watch's row when it
//     writes companies or baselines.
//   - A change goes into an owner's feed, and a delivery is queued, only
//     for a watch whose row Apply locks (FOR KEY SHARE, after the feed
//     insert): a watch deleted since Apply read its watchers gets neither
//     (its owner's entry is deleted again unless another of the owner's
//     watches that Apply read as giving it is kept, or one of the company
//     and of a kind the change has was stored or widened since), rather than failing the Apply on
//     the deliveries' foreign key or listing a change recorded after the
//     watch was gone, and a DeleteWatch in flight that has not touched the
//     Apply's rows waits for it. Prune locks the stale snapshots it
//     deletes in key order, as Apply and the watch writes lock theirs, so
//     that they do not deadlock over snapshots.
//   - A RecordAttempt that disables the watch locks the watch's row before
//     the delivery's, as DeleteWatch locks its watch's row before its
//     cascade deletes the deliveries; any other attempt holds no row
//     while it waits.
//   - An Apply that purges a company (Batch.Purge), before it deletes the
//     company's deliveries, takes the feed's counter row (as Prune does
//     before it deletes deliveries) and, FOR KEY SHARE in id order, the
//     rows of every watch that holds the company or has a delivery of one
//     of its changes (as a DeleteWatch locks its watch's row before its
//     cascade): it waits for such a Prune or DeleteWatch, or they wait
//     for it.
//
// Times are kept to the microsecond and read back in UTC. Watches read
// back with empty, non-nil IDs and Kinds when they have none.
//
// On SQLite the store writes through a single connection (concurrent
// goroutines queue instead of failing with SQLITE_BUSY) in WAL mode, so
// reads go on beside a write. SQLite serves one process; replicas need
// PostgreSQL.
package sqlstore
