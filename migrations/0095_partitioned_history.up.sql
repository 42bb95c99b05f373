-- Recipients partitioned by month (docs/partitions.md).
--
-- The partition key is the id itself: a recipient's id is the base of the month it
-- was created in (month m since January 2020, UTC, shifted left 42 bits) plus the
-- global sequence. Ids stay unique and increasing, every lookup by id (receipts,
-- the gateway's recorder, the sweeper) is pruned to one partition, and the month of
-- a row is read off its id. The sequence may reach 2^42 (4.4 × 10^12 rows) before
-- it would spill into the next month's range.
--
-- Partitions are made three months ahead here and by the worker every day
-- (pkg/history); months older than HISTORY_KEEP_MONTHS are detached into the
-- history_archive schema, where reports still read them through recipients_history.
-- Rows that existed before this migration stay in recipients_legacy, one partition
-- below the first month.

CREATE FUNCTION history_month(t timestamptz) RETURNS int LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT ((extract(year FROM t AT TIME ZONE 'UTC')::int - 2020) * 12
         + extract(month FROM t AT TIME ZONE 'UTC')::int - 1)
$$;

CREATE FUNCTION history_base(m int) RETURNS bigint LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT m::bigint << 42
$$;

ALTER TABLE recipients RENAME TO recipients_legacy;
ALTER INDEX recipients_pkey RENAME TO recipients_legacy_pkey;
ALTER INDEX recipients_send_batch_idx RENAME TO recipients_legacy_send_batch_idx;
ALTER INDEX recipients_unknown_idx RENAME TO recipients_legacy_unknown_idx;
ALTER TABLE recipients_legacy RENAME CONSTRAINT recipients_send_id_fkey TO recipients_legacy_send_id_fkey;

CREATE TABLE recipients (LIKE recipients_legacy INCLUDING DEFAULTS INCLUDING CONSTRAINTS)
  PARTITION BY RANGE (id);
ALTER SEQUENCE recipients_id_seq OWNED BY recipients.id;
ALTER TABLE recipients ALTER COLUMN id SET DEFAULT history_base(history_month(now())) + nextval('recipients_id_seq');
ALTER TABLE recipients ADD PRIMARY KEY (id);
ALTER TABLE recipients ADD CONSTRAINT recipients_send_id_fkey FOREIGN KEY (send_id) REFERENCES sends(id) ON DELETE CASCADE;
CREATE INDEX recipients_send_batch_idx ON recipients (send_id, batch, id);
CREATE INDEX recipients_unknown_idx ON recipients (mobile) WHERE unknown;

ALTER TABLE recipients ATTACH PARTITION recipients_legacy
  FOR VALUES FROM (MINVALUE) TO (history_base(history_month(now())));

-- history_partition_name is the partition of month m: recipients_pYYYYMM.
CREATE FUNCTION history_partition_name(m int) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT format('recipients_p%s%s', 2020 + m / 12, lpad((m % 12 + 1)::text, 2, '0'))
$$;

-- history_first_month is the first month with a partition of its own (the month
-- of this migration); recipients_legacy holds every id below its base.
DO $$ BEGIN
  EXECUTE format('CREATE FUNCTION history_first_month() RETURNS int LANGUAGE sql IMMUTABLE AS %L',
                 'SELECT ' || history_month(now()));
END $$;

-- ensure_month_partition makes the partition of month m when it is missing (and
-- not archived) and says whether it made it.
CREATE FUNCTION ensure_month_partition(m int) RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE
  name text := history_partition_name(m);
BEGIN
  IF m < history_first_month() OR to_regclass(name) IS NOT NULL
     OR to_regclass('history_archive.' || name) IS NOT NULL THEN
    RETURN false;
  END IF;
  EXECUTE format('CREATE TABLE %I PARTITION OF recipients FOR VALUES FROM (%s) TO (%s) WITH (fillfactor = 50)',
                 name, history_base(m), history_base(m + 1));
  RETURN true;
END $$;

SELECT ensure_month_partition(i) FROM generate_series(history_month(now()), history_month(now()) + 3) i;

CREATE SCHEMA history_archive;

-- recipients_history: the attached months and the archived ones (pkg/history
-- redefines it whenever a month is archived). Reports read it.
CREATE VIEW recipients_history AS SELECT * FROM recipients;
