DROP INDEX IF EXISTS sends_window_paused;
ALTER TABLE sends DROP COLUMN IF EXISTS hours_start, DROP COLUMN IF EXISTS hours_end,
    DROP COLUMN IF EXISTS pause_reason, DROP COLUMN IF EXISTS resume_at;
DROP TABLE IF EXISTS account_send_hours;
DROP TABLE IF EXISTS send_hours;
