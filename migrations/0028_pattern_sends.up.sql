-- Pattern sends (docs/patterns.md): the per-recipient texts rendered from the approved
-- pattern version, and the version sent (the caller's local_id is
-- 0024's sends.local_id).
ALTER TABLE sends ADD COLUMN texts text[];
ALTER TABLE sends ADD COLUMN pattern_version_id bigint REFERENCES pattern_versions(id) ON DELETE SET NULL;
