DO $$
DECLARE t record;
BEGIN
  FOR t IN SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
           WHERE n.nspname = 'history_archive' AND c.relkind = 'i' AND c.relname LIKE 'recipients_p%_mobile_idx'
  LOOP
    EXECUTE format('DROP INDEX IF EXISTS history_archive.%I', t.relname);
  END LOOP;
END $$;

DROP INDEX IF EXISTS recipients_mobile_idx;
