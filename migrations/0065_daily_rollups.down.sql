DROP TRIGGER IF EXISTS inbox_rollup_mark ON inbox;
DROP TRIGGER IF EXISTS sends_rollup_mark ON sends;
DROP FUNCTION IF EXISTS rollup_mark_inbox();
DROP FUNCTION IF EXISTS rollup_mark_send();
DROP TABLE IF EXISTS rollup_day_ops, rollup_days, rollup_send_ops, rollup_sends, rollup_dirty_days, rollup_dirty_sends;
