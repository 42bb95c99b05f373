-- Contact search by name (docs/contacts.md, «Search and imports»). The trigram index
-- on contacts.name cost an import about 6 µs a row, and the one on contacts.mobile
-- 4.5 µs (0194 drops both): names are searched in this side table instead, and numbers
-- by prefix on contacts_mobile_idx.
--
-- Every write of contacts keeps contact_search in step through the statement
-- triggers below, in the writer's transaction, except the rows an import copies
-- (import_id set): those are added after the import, a batch at a time, by the
-- worker's search-index task (pkg/phonebook IndexImport), so search may lag an
-- import by a few seconds while the import itself maintains no trigram index.
-- Contacts without a name have no row. The phonebook is there for the capped count of
-- a name search, which needs no contact row then.
CREATE TABLE contact_search (
    contact_id   bigint PRIMARY KEY,
    account_id   bigint NOT NULL,
    phonebook_id bigint NOT NULL,
    name         text NOT NULL
);

-- The imports whose contacts are not all in contact_search yet: a row from the
-- import's creation (the trigger below, whichever release creates it) until the
-- import has ended and every contact it added is indexed. after_id is the task's
-- cursor: the import's contacts up to it are done (the contacts id when the import
-- was created, so none of its phonebook's older contacts is read again). The panel
-- shows «در حال نمایه‌سازی» while the account has one.
CREATE TABLE contact_search_pending (
    import_id    bigint PRIMARY KEY REFERENCES contact_imports(id) ON DELETE CASCADE,
    account_id   bigint NOT NULL,
    phonebook_id bigint NOT NULL,
    after_id     bigint NOT NULL DEFAULT 0
);
CREATE INDEX contact_search_pending_account_idx ON contact_search_pending (account_id);

CREATE FUNCTION contact_search_import_created() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO contact_search_pending (import_id, account_id, phonebook_id, after_id)
    VALUES (NEW.id, NEW.account_id, NEW.phonebook_id, (SELECT coalesce(max(id), 0) FROM contacts));
    RETURN NULL;
END $$;
CREATE TRIGGER contact_search_import_created AFTER INSERT ON contact_imports
    FOR EACH ROW EXECUTE FUNCTION contact_search_import_created();

-- One function behind the three statement triggers of contacts:
-- INSERT: the added contacts with a name, except an import's;
-- UPDATE: renamed contacts, and moved ones (their phonebook; and an imported
--   contact moved before its import's rows were indexed would be missed by the
--   task, which reads the import's phonebook);
-- DELETE: the deleted contacts (also a phonebook's, through
--   phonebooks_delete_contacts).
CREATE FUNCTION contact_search_sync() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        INSERT INTO contact_search (contact_id, account_id, phonebook_id, name)
        SELECT id, account_id, phonebook_id, name FROM added WHERE import_id IS NULL AND name <> ''
        ON CONFLICT (contact_id) DO NOTHING;
    ELSIF TG_OP = 'UPDATE' THEN
        DELETE FROM contact_search s USING changed n, previous o
        WHERE s.contact_id = n.id AND o.id = n.id AND n.name = '' AND o.name <> '';
        INSERT INTO contact_search (contact_id, account_id, phonebook_id, name)
        SELECT n.id, n.account_id, n.phonebook_id, n.name FROM changed n JOIN previous o ON o.id = n.id
        WHERE n.name <> '' AND (n.name <> o.name OR n.phonebook_id <> o.phonebook_id)
        ON CONFLICT (contact_id) DO UPDATE SET name = excluded.name, phonebook_id = excluded.phonebook_id
        WHERE (contact_search.name, contact_search.phonebook_id) <> (excluded.name, excluded.phonebook_id);
    ELSE
        DELETE FROM contact_search s USING removed r WHERE s.contact_id = r.id;
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER contact_search_added AFTER INSERT ON contacts
    REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION contact_search_sync();
CREATE TRIGGER contact_search_changed AFTER UPDATE ON contacts
    REFERENCING OLD TABLE AS previous NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION contact_search_sync();
CREATE TRIGGER contact_search_removed AFTER DELETE ON contacts
    REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION contact_search_sync();

-- Imports running while this migration ran: 0191 indexes what they committed
-- before it, the task the rest (after_id 0: their phonebook is read from its start).
INSERT INTO contact_search_pending (import_id, account_id, phonebook_id)
SELECT id, account_id, phonebook_id FROM contact_imports WHERE status = 'running'
ON CONFLICT (import_id) DO NOTHING;
