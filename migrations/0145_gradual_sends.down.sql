DROP INDEX IF EXISTS sends_pace_waiting;
ALTER TABLE sends DROP COLUMN IF EXISTS pace_per_hour, DROP COLUMN IF EXISTS pace_from,
    DROP COLUMN IF EXISTS pace_base, DROP COLUMN IF EXISTS pace_released,
    DROP COLUMN IF EXISTS pace_wait_until, DROP COLUMN IF EXISTS pace_end_at;
