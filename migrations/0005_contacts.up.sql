-- Contacts (spec §3 Phonebook, Contact, Feature; §7 Phonebook): phonebooks (shown as
-- «گروه»), their contacts, per-account tags and custom features, and contact imports
-- from parsed upload files. The lists (send/receive blacklists, cancel-11) are the
-- blacklist table of 0002; this migration only adds indexes to it.

-- Contains-search on names and numbers.
CREATE EXTENSION IF NOT EXISTS pg_trgm;

-- members is kept exact by every write of contacts, in the same transaction.
CREATE TABLE phonebooks (
    id         bigserial PRIMARY KEY,
    account_id bigint NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    name       text NOT NULL,
    code       text NOT NULL,
    members    int NOT NULL DEFAULT 0 CHECK (members >= 0),
    created_at timestamptz NOT NULL DEFAULT now(),
    UNIQUE (account_id, name),
    UNIQUE (account_id, code)
);

CREATE TABLE contact_tags (
    id         bigserial PRIMARY KEY,
    account_id bigint NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    name       text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    UNIQUE (account_id, name)
);

-- Custom features («ویژگی‌های بیشتر»). Contacts keep their values in
-- contacts.features keyed by the feature id (as text), so a renamed Latin title
-- keeps its values.
CREATE TABLE contact_features (
    id         bigserial PRIMARY KEY,
    account_id bigint NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    title_fa   text NOT NULL,
    title_en   text NOT NULL,
    type       text NOT NULL CHECK (type IN ('text', 'date', 'integer')),
    enabled    boolean NOT NULL DEFAULT true,
    flows      text[] NOT NULL DEFAULT '{}',
    created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX contact_features_title_en_key ON contact_features (account_id, lower(title_en));

-- A number (normalised 98XXXXXXXXXX) is unique per phonebook; the same number in
-- several phonebooks is one person in several groups.
--
-- No foreign keys on purpose: their per-row checks doubled the time of a
-- million-row import. pkg/phonebook writes contacts only with their phonebook locked
-- in the same account, and the trigger below deletes a phonebook's contacts with it
-- (also when an account's deletion cascades to its phonebooks).
CREATE TABLE contacts (
    id           bigserial PRIMARY KEY,
    account_id   bigint NOT NULL,
    phonebook_id bigint NOT NULL,
    mobile       text NOT NULL,
    name         text NOT NULL DEFAULT '',
    gender       text NOT NULL DEFAULT '' CHECK (gender IN ('', 'male', 'female')),
    birth_date   date,
    tag_ids      bigint[] NOT NULL DEFAULT '{}',
    features     jsonb NOT NULL DEFAULT '{}',
    import_id    bigint,
    created_at   timestamptz NOT NULL DEFAULT now(),
    updated_at   timestamptz NOT NULL DEFAULT now(),
    UNIQUE (phonebook_id, mobile)
);
-- Newest-first pages of all contacts, and of one phonebook (also the send engine's
-- keyset read of a phonebook).
CREATE INDEX contacts_account_id_idx ON contacts (account_id, id);
CREATE INDEX contacts_phonebook_id_idx ON contacts (phonebook_id, id);
-- A number across the account's phonebooks: prefix searches (0912…) as a range, the
-- lists a number is on.
CREATE INDEX contacts_mobile_idx ON contacts (account_id, mobile);
CREATE INDEX contacts_name_trgm_idx ON contacts USING gin (name gin_trgm_ops);
CREATE INDEX contacts_mobile_trgm_idx ON contacts USING gin (mobile gin_trgm_ops);
CREATE INDEX contacts_tags_idx ON contacts USING gin (tag_ids);
-- Filters whose total would otherwise scan every contact of the account: birth
-- date ranges and integer/date feature values (features @> '{"<id>": value}').
CREATE INDEX contacts_birth_idx ON contacts (account_id, birth_date) WHERE birth_date IS NOT NULL;
CREATE INDEX contacts_features_idx ON contacts USING gin (features jsonb_path_ops);

CREATE FUNCTION phonebooks_delete_contacts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM contacts c USING gone g WHERE c.phonebook_id = g.id;
    RETURN NULL;
END $$;
CREATE TRIGGER phonebooks_delete_contacts AFTER DELETE ON phonebooks
    REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION phonebooks_delete_contacts();

-- One import of a parsed upload file into a phonebook. The worker commits each chunk
-- of rows together with last_row (the last file row done) and the counters, so a
-- retried task resumes where it stopped and never adds a row twice.
CREATE TABLE contact_imports (
    id           bigserial PRIMARY KEY,
    account_id   bigint NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    user_id      bigint REFERENCES users(id) ON DELETE SET NULL,
    phonebook_id bigint NOT NULL REFERENCES phonebooks(id) ON DELETE CASCADE,
    file_id      bigint NOT NULL, -- files of 0006; no foreign key on purpose
    mapping      jsonb NOT NULL DEFAULT '{}',
    status       text NOT NULL DEFAULT 'running' CHECK (status IN ('running', 'done', 'failed')),
    total        int NOT NULL DEFAULT 0,
    processed    int NOT NULL DEFAULT 0,
    last_row     int NOT NULL DEFAULT 0,
    added        int NOT NULL DEFAULT 0,
    skipped      int NOT NULL DEFAULT 0,
    invalid      int NOT NULL DEFAULT 0,
    errors       jsonb NOT NULL DEFAULT '[]',
    error        text NOT NULL DEFAULT '',
    created_at   timestamptz NOT NULL DEFAULT now(),
    updated_at   timestamptz NOT NULL DEFAULT now(),
    finished_at  timestamptz
);
CREATE INDEX contact_imports_account_idx ON contact_imports (account_id, id DESC);

-- The lists: newest-first pages per kind, and lookups of a number in every list
-- (a contact's blacklist dates, the blacklisted count of phonebooks).
CREATE INDEX blacklist_list_idx ON blacklist (account_id, kind, created_at DESC, mobile);
CREATE INDEX blacklist_mobile_idx ON blacklist (account_id, mobile);
