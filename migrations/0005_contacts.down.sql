DROP INDEX IF EXISTS blacklist_mobile_idx;
DROP INDEX IF EXISTS blacklist_list_idx;
DROP TABLE IF EXISTS contact_imports;
DROP TRIGGER IF EXISTS phonebooks_delete_contacts ON phonebooks;
DROP FUNCTION IF EXISTS phonebooks_delete_contacts();
DROP TABLE IF EXISTS contacts;
DROP TABLE IF EXISTS contact_features;
DROP TABLE IF EXISTS contact_tags;
DROP TABLE IF EXISTS phonebooks;
-- pg_trgm stays: other migrations or tools may use it, and up creates it IF NOT EXISTS.
