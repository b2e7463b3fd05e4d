-- A claim takes first each watch's share of deliveries in flight
-- (changes.FairSharePerWatch). The deliveries claimed by a worker (a few at
-- any time), so that a claim counts a watch's deliveries in flight without
-- reading its backlog:
CREATE INDEX deliveries_claimed ON deliveries (watch_id, claimed_until) WHERE claimed_until IS NOT NULL;
-- The pending deliveries of each watch in due order, so that a claim finds
-- the watches with pending deliveries and the oldest due of each without
-- reading one watch's whole backlog.
CREATE INDEX deliveries_pending_watch ON deliveries (watch_id, next_attempt_at, change_seq, id) WHERE status = 'pending';
