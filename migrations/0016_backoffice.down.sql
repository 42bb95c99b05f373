DROP TABLE content_items;
DELETE FROM settings WHERE key = 'moderation';
DROP TABLE moderation_words;
DROP TABLE review_items;
UPDATE sends SET status = 'stopped' WHERE status IN ('held', 'blocked');
ALTER TABLE sends DROP COLUMN review_note;
ALTER TABLE sends DROP CONSTRAINT sends_status_check;
ALTER TABLE sends ADD CONSTRAINT sends_status_check
    CHECK (status IN ('scheduled', 'queued', 'expanding', 'sending', 'paused', 'done', 'stopped', 'failed'));
ALTER TABLE users DROP COLUMN is_staff;
