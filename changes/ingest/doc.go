// Package ingest finds the changes of watched companies in the national
// registers and records them in a [changes.Store]: the feed of change
// monitoring and the webhooks' source.
//
// A register's own change signal only says which company to look at.
// What changed is always found the same way: the company is fetched
// fresh from its register (a [changes.Fetcher], normally
// [changes.RegistryFetcher], which bypasses the cache and keeps to the
// register's upstream budget) and its report and roles are compared with
// the stored snapshot ([changes.Diff]). The new snapshot, the changes,
// the webhook deliveries and the ingester's cursor are stored together in
// one [changes.Store.Apply], so a crash never loses or repeats an event:
// a page read again gives no change twice. The Apply names the snapshot
// each company was compared with ([changes.Batch.Expect]): when another
// writer replaced it meanwhile (a watch's new baseline, taken after the
// ingester read the old one), the store writes nothing, and the ingester
// stores the rest without that company, which it reads again against
// the new snapshot (at the next sync or flush; it is owed in the state
// stored with the cursors, below, so a restart reads it too). One case is
// left: Norway records the items of a company no watch holds as the
// register reported them, without a fetch, and such an item reaches a
// watch of the company stored between the page's check of which
// companies are watched and its Apply, even when that watch's baseline
// already holds the change: a true change reported once more than
// needed, never one lost.
//
// # Sources
//
//   - Norway ([NewNorway]): Brønnøysund's update feeds /oppdateringer/enheter,
//     /oppdateringer/underenheter and /oppdateringer/roller, each read
//     forwards from its own cursor (the first read starts a minute before
//     the older of now and the oldest baseline of a watched company), a
//     page of [DefaultPageSize] at a time, never by page number. Updates of
//     watched companies are fetched and compared; every other update is
//     recorded as the register reported it (the kinds its JSON Patch paths
//     touch, "updated" when none, old null), so that any Norwegian
//     company's recent changes can be listed.
//   - United Kingdom ([NewCompaniesHouseStream]): Companies House's
//     streaming API when a stream key is set ([EnvStreamKey]), with each
//     stream's timepoint stored; without a key, or after a 416, a
//     [Poller]. The stream and its poller never refresh one company at
//     once: each would diff the same snapshot and record the change
//     twice.
//   - Every other country, Finland among them ([NewPoller]): each watched
//     company fetched once per poll interval ([EnvPollInterval], default
//     24 hours), spread evenly; a company is reported deleted after two
//     consecutive polls that do not find it.
//
// A fetch that fails for a reason that may pass (the register down, a
// spent budget) keeps the signal until the company is fetched. One that
// fails with internal_error, which may pass or not, is tried again
// without holding up the other companies: a feed's item or event, or a
// sweep's company, gets five such failed fetches in a row before it is
// dropped with a warning (a fetch that works, even if storing what it
// found fails, starts the count again); a newer item of the company
// handled by the feed ends its retry. Norway's and a sweep's retries are stored with the ingester's
// cursors, in the same Apply as the changes they go with (Norway's in the
// cursor "NO/retry", a sweep's in the poller's cursor), so a restart, or
// another replica taking over the ingesters, continues them with their
// attempts; the stream's events are replayed from its stored timepoint,
// with fresh attempts. A company owed a new read because its snapshot
// was replaced is kept the same way, with no attempt counted. Only Norway's items of unwatched companies held
// for a minute's second look are in memory: a restart or a handover
// forgets them. Any other failure (an identifier the register rejects)
// drops the signal with a warning. A scheduled poll's company that failed is polled again at its
// next moment either way.
//
// # Running
//
// [Standard] builds the ingesters for a set of countries from [Settings]
// ([SettingsFromEnv] reads them from the environment). A [Leader] runs
// them on one replica at a time, holding the store's lease: every replica
// runs a Leader, and the ingesters move to another replica within a
// minute of the one running them dying. The Leader reads the feeds every
// [EnvChangesInterval] (default 1 minute). Each Apply of its ingesters
// carries the lease as a fence ([changes.Batch.Lease]): the store
// refuses it, writing nothing, once another replica holds the lease, so
// a replica that led before (paused, or cut off from the store) does not
// write over the new leader's cursors, retries, snapshots or changes; the
// refused replica stops its ingesters at once, and renews its lease only
// while it is still its own ([changes.Store.RenewLease]). An ingester of your own stores
// through [Apply] to be fenced too. Ingesters whose Sync or Run is
// called without a Leader write unfenced.
//
// Every ingester takes a [Clock], so that tests move time by hand. Logs
// name companies only at debug level and never show the stream key.
package ingest
