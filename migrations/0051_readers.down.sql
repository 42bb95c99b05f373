DROP TABLE IF EXISTS reader_draws;
DROP TABLE IF EXISTS reader_codes;
DROP SEQUENCE IF EXISTS reader_reply_batches;
DROP TABLE IF EXISTS reader_entries;
DROP TABLE IF EXISTS reader_participants;
DROP TABLE IF EXISTS readers;
