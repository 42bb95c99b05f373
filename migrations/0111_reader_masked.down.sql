DROP INDEX IF EXISTS inbox_whole_sender_idx;
ALTER TABLE reader_codes DROP COLUMN IF EXISTS masked;
ALTER TABLE reader_participants DROP COLUMN IF EXISTS masked;
ALTER TABLE reader_entries DROP COLUMN IF EXISTS masked;
