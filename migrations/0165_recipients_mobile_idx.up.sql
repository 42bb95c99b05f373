-- Finding a mobile across an account's sends (the reports list's mobile filter,
-- docs/reports.md): recipients has no account column, so the lookup goes by the
-- number first and keeps only the sends of the account. (mobile, send_id) makes it
-- an index-only probe per month partition instead of a scan of every recipient of
-- the account's sends. The index is made on every attached month (the partitioned
-- index) and on each month already moved to the history_archive schema, which
-- reports still read through recipients_history.
CREATE INDEX recipients_mobile_idx ON recipients (mobile, send_id);

DO $$
DECLARE t record;
BEGIN
  FOR t IN SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
           WHERE n.nspname = 'history_archive' AND c.relkind = 'r' AND c.relname LIKE 'recipients_p%'
  LOOP
    EXECUTE format('CREATE INDEX IF NOT EXISTS %I ON history_archive.%I (mobile, send_id)', t.relname || '_mobile_idx', t.relname);
  END LOOP;
END $$;
