-- The signing key a rotation replaced (changes.Service.RotateSecret) and
-- when it stops signing beside the current one (secret), in microseconds
-- like every time; both NULL before the watch's first rotation, so a
-- watch of an earlier schema signs with its one secret as before. A
-- rotation sets the three columns in one UPDATE.
ALTER TABLE watches ADD COLUMN previous_secret BLOB;
ALTER TABLE watches ADD COLUMN previous_until BIGINT;
