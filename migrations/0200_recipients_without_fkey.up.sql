-- migrate: contract recipients_send_id_fkey
-- Recipients without the foreign key to sends (docs/architecture.md §3.1): the key's
-- check ran once a row at expansion (a lookup of the send for every recipient the
-- COPY writes, about 4 µs a row, a third of the COPY), for rows that only expansion
-- writes, under the lock of the very send row it would have looked up. What the key
-- did besides, removing a send's recipients with the send, this trigger does, once a
-- statement, through recipients_send_batch_idx. Archived months (history_archive)
-- keep the key they were detached with.
ALTER TABLE recipients DROP CONSTRAINT recipients_send_id_fkey;

CREATE FUNCTION sends_drop_recipients() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM recipients WHERE send_id IN (SELECT id FROM gone);
  RETURN NULL;
END $$;

CREATE TRIGGER sends_drop_recipients AFTER DELETE ON sends
  REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION sends_drop_recipients();
