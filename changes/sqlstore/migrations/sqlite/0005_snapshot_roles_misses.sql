-- Consecutive answers of a company found whose roles lack a whole group
-- of the roles the snapshot holds (a roles endpoint's one-off 404 looks
-- like that), counted apart from misses (answers that found no company),
-- so that a company missed once and then found without its roles is not
-- taken as roles vanished twice. A snapshot of an earlier schema starts
-- at 0: a group gone once before the migration needs one more answer.
ALTER TABLE snapshots ADD COLUMN roles_misses INTEGER NOT NULL DEFAULT 0;
