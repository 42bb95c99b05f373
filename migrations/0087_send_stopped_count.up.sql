-- The recipients a stop left unsent (spec: the report's progress bar shows them as
-- their own «متوقف‌شده» segment, apart from those the carrier refused). Counted by the
-- stop itself and by the sweep that settles a stopped send's abandoned claims; both
-- also still count them in rejected. Sends stopped before this migration are counted
-- from their recipients once.
ALTER TABLE sends ADD COLUMN stopped int NOT NULL DEFAULT 0;

UPDATE sends s SET stopped = (SELECT count(*) FROM recipients r WHERE r.send_id = s.id AND r.status = 6 AND r.error = 'stopped')
WHERE s.status IN ('stopped', 'failed') AND s.expanded_at IS NOT NULL;
