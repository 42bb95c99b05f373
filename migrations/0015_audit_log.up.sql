-- The audit log is append-only: who did what, to what, from where, with a small
-- summary of the state before and after.
ALTER TABLE audit_log
    ADD COLUMN user_agent  text NOT NULL DEFAULT '',
    ADD COLUMN target_type text NOT NULL DEFAULT '',
    ADD COLUMN before      jsonb,
    ADD COLUMN after       jsonb;

-- Rows outlive their account and user (a cascade would be an update or a delete).
ALTER TABLE audit_log DROP CONSTRAINT IF EXISTS audit_log_account_id_fkey;
ALTER TABLE audit_log DROP CONSTRAINT IF EXISTS audit_log_user_id_fkey;

-- The owner's page reads newest first by id, narrowed by action or user.
CREATE INDEX audit_log_account_id_idx ON audit_log (account_id, id DESC);
CREATE INDEX audit_log_account_action_idx ON audit_log (account_id, action, id DESC);
CREATE INDEX audit_log_account_user_idx ON audit_log (account_id, user_id, id DESC);

CREATE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'audit_log is append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
END;
$$;

CREATE TRIGGER audit_log_no_change BEFORE UPDATE OR DELETE ON audit_log
    FOR EACH ROW EXECUTE FUNCTION audit_log_append_only();
CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log
    FOR EACH STATEMENT EXECUTE FUNCTION audit_log_append_only();

REVOKE UPDATE, DELETE, TRUNCATE ON audit_log FROM PUBLIC;
