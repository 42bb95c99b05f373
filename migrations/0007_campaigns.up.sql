-- Bulk sends at scale: paused sends, who controlled a send and when, scheduled
-- sends fired from the database (not from a Redis timer, so a Redis restart loses
-- none), and recurring campaigns with their runs.

ALTER TABLE sends DROP CONSTRAINT sends_status_check;
ALTER TABLE sends ADD CONSTRAINT sends_status_check
    CHECK (status IN ('scheduled', 'queued', 'expanding', 'sending', 'paused', 'done', 'stopped', 'failed'));
ALTER TABLE sends ADD COLUMN campaign_id bigint;
ALTER TABLE sends ADD COLUMN paused_at timestamptz;

DROP INDEX sends_active_idx;
CREATE INDEX sends_active_idx ON sends (status) WHERE status IN ('queued', 'expanding', 'sending', 'paused', 'scheduled');
CREATE INDEX sends_due_idx ON sends (send_at) WHERE status = 'scheduled';

-- Every pause, resume, stop and schedule change of a send: who and when.
CREATE TABLE send_controls (
    id         bigserial PRIMARY KEY,
    send_id    bigint NOT NULL REFERENCES sends(id) ON DELETE CASCADE,
    action     text NOT NULL CHECK (action IN ('pause', 'resume', 'stop', 'reschedule')),
    user_id    bigint REFERENCES users(id) ON DELETE SET NULL,
    api_key_id bigint,
    details    jsonb NOT NULL DEFAULT '{}',
    created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX send_controls_send_idx ON send_controls (send_id, id);

-- Recurring campaigns: each run creates a normal send from the stored request.
CREATE TABLE campaigns (
    id          bigserial PRIMARY KEY,
    account_id  bigint NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    user_id     bigint REFERENCES users(id) ON DELETE SET NULL,
    title       text NOT NULL,
    request     jsonb NOT NULL,  -- the send request (type, sender, text, source)
    schedule    jsonb NOT NULL,  -- {"kind","time","weekdays","month_days","cron"}
    enabled     boolean NOT NULL DEFAULT true,
    next_run_at timestamptz,
    last_run_at timestamptz,
    runs        int NOT NULL DEFAULT 0,
    failed_runs int NOT NULL DEFAULT 0,
    created_at  timestamptz NOT NULL DEFAULT now(),
    updated_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX campaigns_account_idx ON campaigns (account_id, id DESC);
CREATE INDEX campaigns_due_idx ON campaigns (next_run_at) WHERE enabled;

CREATE TABLE campaign_runs (
    id          bigserial PRIMARY KEY,
    campaign_id bigint NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
    due_at      timestamptz NOT NULL,
    send_id     bigint REFERENCES sends(id) ON DELETE SET NULL,
    status      text NOT NULL CHECK (status IN ('sent', 'failed')),
    error       text NOT NULL DEFAULT '',
    created_at  timestamptz NOT NULL DEFAULT now(),
    UNIQUE (campaign_id, due_at)
);
