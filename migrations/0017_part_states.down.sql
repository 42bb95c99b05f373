DROP INDEX IF EXISTS message_ids_created_brin;
ALTER TABLE sends DROP COLUMN IF EXISTS partial;
ALTER TABLE recipients DROP COLUMN IF EXISTS part_states, DROP COLUMN IF EXISTS parts_rejected;
