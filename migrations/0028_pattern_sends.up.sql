-- Pattern sends (docs/patterns.md): the per-recipient texts rendered from the approved
-- pattern version, the caller's own id of the send, and the version sent.
ALTER TABLE sends ADD COLUMN texts text[];
ALTER TABLE sends ADD COLUMN local_id text NOT NULL DEFAULT '';
ALTER TABLE sends ADD COLUMN pattern_version_id bigint REFERENCES pattern_versions(id) ON DELETE SET NULL;
CREATE INDEX sends_local_id_idx ON sends (account_id, local_id) WHERE local_id <> '';
