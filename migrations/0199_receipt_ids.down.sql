DELETE FROM settings WHERE key = 'id_store';

DO $$
DECLARE
  t record;
  q text := 'SELECT * FROM recipients';
BEGIN
  DROP VIEW IF EXISTS recipients_history;
  ALTER TABLE recipients DROP COLUMN IF EXISTS msg_ids;
  FOR t IN SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
           WHERE n.nspname = 'history_archive' AND c.relkind = 'r' AND c.relname LIKE 'recipients_p%'
           ORDER BY c.relname
  LOOP
    EXECUTE format('ALTER TABLE history_archive.%I DROP COLUMN IF EXISTS msg_ids', t.relname);
    q := q || format(' UNION ALL SELECT * FROM history_archive.%I', t.relname);
  END LOOP;
  EXECUTE 'CREATE VIEW recipients_history AS ' || q;
END $$;
