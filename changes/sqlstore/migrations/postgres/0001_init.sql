-- The change-monitoring schema (PostgreSQL). Times are microseconds since
-- 1970-01-01 UTC (BIGINT), as on SQLite; JSON documents are stored as the
-- bytes the service gave (BYTEA), never re-encoded.

-- A caller's watch list. Disabled when disabled_at is set.
CREATE TABLE watches (
    id              TEXT PRIMARY KEY,
    owner           TEXT NOT NULL,
    country         TEXT NOT NULL,
    kinds           TEXT NOT NULL, -- JSON array of kinds; [] = every kind
    url             TEXT NOT NULL,
    secret          BYTEA NOT NULL,
    created_at      BIGINT NOT NULL,
    disabled_at     BIGINT,
    disabled_reason TEXT
);
CREATE INDEX watches_owner ON watches (owner, created_at, id);

-- The companies of each watch, in the order they were given.
CREATE TABLE watch_companies (
    watch_id   TEXT NOT NULL REFERENCES watches (id) ON DELETE CASCADE,
    country    TEXT NOT NULL,
    company_id TEXT NOT NULL,
    pos        INTEGER NOT NULL,
    PRIMARY KEY (watch_id, company_id)
);
CREATE INDEX watch_companies_company ON watch_companies (country, company_id);

-- The last known state of each company.
CREATE TABLE snapshots (
    country    TEXT NOT NULL,
    company_id TEXT NOT NULL,
    report     BYTEA,
    roles      BYTEA,
    taken_at   BIGINT NOT NULL,
    misses     INTEGER NOT NULL,
    PRIMARY KEY (country, company_id)
);

-- One row: the last feed position given out and the last one pruned.
-- Apply takes this row's lock to number changes, so that positions are
-- committed in order and a reader never skips one still being written.
CREATE TABLE feed_state (
    id             INTEGER PRIMARY KEY CHECK (id = 1),
    last_seq       BIGINT NOT NULL,
    pruned_through BIGINT NOT NULL
);
INSERT INTO feed_state (id, last_seq, pruned_through) VALUES (1, 0, 0);

-- The change feed.
CREATE TABLE changes (
    seq             BIGINT PRIMARY KEY,
    id              TEXT NOT NULL UNIQUE,
    country         TEXT NOT NULL,
    company_id      TEXT NOT NULL,
    company_name    TEXT,
    kind            TEXT NOT NULL,
    old_value       BYTEA,
    new_value       BYTEA,
    registered_at   BIGINT,
    detected_at     BIGINT NOT NULL,
    source_url      TEXT,
    source_event_id TEXT
);
CREATE UNIQUE INDEX changes_source_event ON changes (source_event_id, country, company_id, kind)
    WHERE source_event_id IS NOT NULL;
CREATE INDEX changes_company ON changes (country, company_id, seq);

-- Which owner's feed lists which change: written by Apply for every owner
-- watching the company at that moment.
CREATE TABLE feed_entries (
    owner TEXT NOT NULL,
    seq   BIGINT NOT NULL,
    PRIMARY KEY (owner, seq)
);

-- The outbox: one row per change and watch to send to.
CREATE TABLE deliveries (
    id               TEXT PRIMARY KEY,
    watch_id         TEXT NOT NULL REFERENCES watches (id) ON DELETE CASCADE,
    change_seq       BIGINT NOT NULL REFERENCES changes (seq),
    status           TEXT NOT NULL,
    attempts         INTEGER NOT NULL,
    next_attempt_at  BIGINT,
    last_attempt_at  BIGINT,
    last_status_code INTEGER,
    last_error       TEXT,
    created_at       BIGINT NOT NULL,
    claimed_by       TEXT,
    claimed_until    BIGINT
);
CREATE INDEX deliveries_due ON deliveries (next_attempt_at, change_seq) WHERE status = 'pending';
CREATE INDEX deliveries_watch ON deliveries (watch_id, created_at);
CREATE INDEX deliveries_change ON deliveries (change_seq);

-- The ingesters' positions in the registers' feeds.
CREATE TABLE ingest_cursors (
    name       TEXT PRIMARY KEY,
    value      TEXT NOT NULL,
    updated_at BIGINT NOT NULL
);

-- Named leases (the ingest leader).
CREATE TABLE leases (
    name       TEXT PRIMARY KEY,
    holder     TEXT NOT NULL,
    expires_at BIGINT NOT NULL
);
