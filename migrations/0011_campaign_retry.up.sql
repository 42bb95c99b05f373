-- A campaign run that could not be tried (its account's send rate limit, a
-- database error) waits until retry_at and keeps its due time (so its retry is the
-- same idempotent run); meanwhile the scheduler serves every other campaign.
ALTER TABLE campaigns ADD COLUMN retry_at timestamptz;
