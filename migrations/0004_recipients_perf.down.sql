DO $$
BEGIN
    ALTER TABLE sends ALTER COLUMN numbers SET COMPRESSION pglz;
EXCEPTION WHEN feature_not_supported THEN
    NULL;
END
$$;
DROP INDEX IF EXISTS sends_unfinished_idx;
ALTER TABLE sends DROP COLUMN IF EXISTS swept_at;
DROP TABLE IF EXISTS recipient_claims;
ALTER TABLE message_ids RESET (fillfactor);
ALTER TABLE recipients RESET (fillfactor);
DROP INDEX IF EXISTS recipients_send_batch_idx;
CREATE INDEX recipients_send_batch_idx ON recipients (send_id, batch, status);
CREATE INDEX recipients_send_status_idx ON recipients (send_id, status);
CREATE INDEX recipients_inflight_idx ON recipients (updated_at) WHERE status IN (5, 7);
