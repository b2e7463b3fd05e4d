-- The signing keys rotations replaced (changes.Service.RotateSecret), at
-- most two (changes.MaxPreviousSecrets), each with the time it stops
-- signing beside the current one (secret), in microseconds like every
-- time: previous_secret the key the last rotation replaced, previous2_secret
-- the one before it. Both pairs NULL before the watch's first rotation, so
-- a watch of an earlier schema signs with its one secret as before. A
-- rotation sets the five columns in one UPDATE. Two pairs of columns rather
-- than one encoded list: that UPDATE shifts them with CASE expressions that
-- read the row as it was, with no format of ours inside a column.
ALTER TABLE watches ADD COLUMN previous_secret BLOB;
ALTER TABLE watches ADD COLUMN previous_until BIGINT;
ALTER TABLE watches ADD COLUMN previous2_secret BLOB;
ALTER TABLE watches ADD COLUMN previous2_until BIGINT;
