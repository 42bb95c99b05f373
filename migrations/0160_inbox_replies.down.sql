DROP INDEX IF EXISTS inbox_thread_idx;
DROP TABLE IF EXISTS inbox_replies;
ALTER TABLE inbox DROP COLUMN IF EXISTS replied_at;
