DROP TRIGGER IF EXISTS contact_search_removed ON contacts;
DROP TRIGGER IF EXISTS contact_search_changed ON contacts;
DROP TRIGGER IF EXISTS contact_search_added ON contacts;
DROP TRIGGER IF EXISTS contact_search_import_created ON contact_imports;
DROP FUNCTION IF EXISTS contact_search_sync();
DROP FUNCTION IF EXISTS contact_search_import_created();
DROP TABLE IF EXISTS contact_search_pending;
DROP TABLE IF EXISTS contact_search;
