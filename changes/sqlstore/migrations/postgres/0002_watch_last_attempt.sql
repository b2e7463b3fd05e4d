-- The outcome of the last delivery attempt to a watch's endpoint, shown on
-- the watch: when, the HTTP status (NULL when no answer came) and why it
-- failed (NULL when it succeeded).
ALTER TABLE watches ADD COLUMN last_attempt_at BIGINT;
ALTER TABLE watches ADD COLUMN last_status_code INTEGER;
ALTER TABLE watches ADD COLUMN last_error TEXT;
