-- Message ids on the recipient, the receipt lookup in Redis (docs/architecture.md
-- §3.1): the outcome's update, which writes the recipient anyway, carries each part's
-- message id (msg_ids[part], '' for a part without one), and the gateway keeps the
-- lookup from id to recipient in Redis (`mid:<route>:<id>`, expiring with the id
-- retention) instead of inserting a message_ids row: one row write a recipient fewer.
-- A receipt whose key Redis lost is matched on its handset's recent recipients by
-- msg_ids (recipients_mobile_idx).
ALTER TABLE recipients ADD COLUMN msg_ids text[];

-- Months already moved to the history_archive schema get the column too, and
-- recipients_history (the attached months and the archived ones, pkg/history) is
-- made again with it (the view's columns were fixed when it was made; the new
-- column comes last, so the previous release's readers see the view they knew).
DO $$
DECLARE
  t record;
  q text := 'SELECT * FROM recipients';
BEGIN
  FOR t IN SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
           WHERE n.nspname = 'history_archive' AND c.relkind = 'r' AND c.relname LIKE 'recipients_p%'
           ORDER BY c.relname
  LOOP
    EXECUTE format('ALTER TABLE history_archive.%I ADD COLUMN IF NOT EXISTS msg_ids text[]', t.relname);
    q := q || format(' UNION ALL SELECT * FROM history_archive.%I', t.relname);
  END LOOP;
  EXECUTE 'CREATE OR REPLACE VIEW recipients_history AS ' || q;
END $$;

-- The previous release's workers read receipts' ids from message_ids alone. A
-- database that already sends (an upgrade) starts in 'table' mode, the gateways
-- inserting message_ids as before; the operator switches to 'redis' once every
-- process runs the new release (`chapar-api admin id-store redis`, upgrades.md).
-- A new database starts in 'redis'. Every process of this release reads both.
INSERT INTO settings (key, value)
SELECT 'id_store', to_jsonb(CASE WHEN EXISTS (SELECT 1 FROM sends) THEN 'table' ELSE 'redis' END)
ON CONFLICT (key) DO NOTHING;
