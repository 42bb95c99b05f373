-- The systemic list (pkg/report/systemic.go, docs/reports.md): the platform's own
-- messages (one-time codes, security notices, credit alerts, invitations) are
-- sends of the system account whose user_id is the user they were sent to.
-- purpose records why (the challenge purpose, notice, invite, alert); '' for the
-- ones sent before this column. user_id and type never change, so the index
-- leaves the engine's HOT counter updates alone.
ALTER TABLE sends ADD COLUMN purpose text NOT NULL DEFAULT '';
CREATE INDEX sends_systemic_idx ON sends (user_id, created_at DESC) WHERE type = 'verification';
