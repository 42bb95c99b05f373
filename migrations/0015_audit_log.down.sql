DROP TRIGGER IF EXISTS audit_log_no_truncate ON audit_log;
DROP TRIGGER IF EXISTS audit_log_no_change ON audit_log;
DROP FUNCTION IF EXISTS audit_log_append_only();
DROP INDEX IF EXISTS audit_log_account_user_idx;
DROP INDEX IF EXISTS audit_log_account_action_idx;
DROP INDEX IF EXISTS audit_log_account_id_idx;
DELETE FROM audit_log WHERE account_id NOT IN (SELECT id FROM accounts);
UPDATE audit_log SET user_id = NULL WHERE user_id NOT IN (SELECT id FROM users);
ALTER TABLE audit_log ADD CONSTRAINT audit_log_account_id_fkey
    FOREIGN KEY (account_id) REFERENCES accounts(id) ON DELETE CASCADE;
ALTER TABLE audit_log ADD CONSTRAINT audit_log_user_id_fkey
    FOREIGN KEY (user_id) REFERENCES users(id) ON DELETE SET NULL;
ALTER TABLE audit_log DROP COLUMN after, DROP COLUMN before, DROP COLUMN target_type, DROP COLUMN user_agent;
