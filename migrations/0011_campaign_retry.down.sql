ALTER TABLE campaigns DROP COLUMN retry_at;
