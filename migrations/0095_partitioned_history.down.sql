DROP VIEW IF EXISTS recipients_history;
CREATE TABLE recipients_plain (LIKE recipients INCLUDING DEFAULTS INCLUDING CONSTRAINTS) WITH (fillfactor = 50);
INSERT INTO recipients_plain SELECT * FROM recipients;
DO $$
DECLARE t text;
BEGIN
  FOR t IN SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
           WHERE i.inhparent = 'recipients'::regclass LOOP
    EXECUTE format('ALTER TABLE recipients DETACH PARTITION %I', t);
    EXECUTE format('DROP TABLE %I', t);
  END LOOP;
  FOR t IN SELECT tablename FROM pg_tables WHERE schemaname = 'history_archive' LOOP
    EXECUTE format('INSERT INTO recipients_plain SELECT * FROM history_archive.%I', t);
  END LOOP;
END $$;
ALTER SEQUENCE recipients_id_seq OWNED BY recipients_plain.id;
DROP TABLE recipients;
DROP SCHEMA history_archive CASCADE;
ALTER TABLE recipients_plain RENAME TO recipients;
ALTER TABLE recipients ALTER COLUMN id SET DEFAULT nextval('recipients_id_seq');
ALTER TABLE recipients ADD PRIMARY KEY (id);
ALTER TABLE recipients ADD CONSTRAINT recipients_send_id_fkey FOREIGN KEY (send_id) REFERENCES sends(id) ON DELETE CASCADE;
CREATE INDEX recipients_send_batch_idx ON recipients (send_id, batch, id);
CREATE INDEX recipients_unknown_idx ON recipients (mobile) WHERE unknown;
DROP FUNCTION ensure_month_partition(int);
DROP FUNCTION history_first_month();
DROP FUNCTION history_partition_name(int);
DROP FUNCTION history_base(int);
DROP FUNCTION history_month(timestamptz);
