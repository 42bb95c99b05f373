ALTER TABLE content_items DROP COLUMN placement, DROP COLUMN action;
