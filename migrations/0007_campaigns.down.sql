DROP TABLE campaign_runs;
DROP TABLE campaigns;
DROP TABLE send_controls;
DROP INDEX sends_due_idx;
DROP INDEX sends_active_idx;
CREATE INDEX sends_active_idx ON sends (status) WHERE status IN ('queued', 'expanding', 'sending', 'scheduled');
ALTER TABLE sends DROP COLUMN paused_at;
ALTER TABLE sends DROP COLUMN campaign_id;
UPDATE sends SET status = 'sending' WHERE status = 'paused';
ALTER TABLE sends DROP CONSTRAINT sends_status_check;
ALTER TABLE sends ADD CONSTRAINT sends_status_check
    CHECK (status IN ('scheduled', 'queued', 'expanding', 'sending', 'done', 'stopped', 'failed'));
