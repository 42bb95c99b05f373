DROP TRIGGER IF EXISTS sends_drop_recipients ON sends;
DROP FUNCTION IF EXISTS sends_drop_recipients();
ALTER TABLE recipients ADD CONSTRAINT recipients_send_id_fkey FOREIGN KEY (send_id) REFERENCES sends(id) ON DELETE CASCADE;
