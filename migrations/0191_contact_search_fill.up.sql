-- The names of the contacts that were there before 0190. 0190's triggers waited for
-- every transaction writing contacts to end before they were in place, so this
-- snapshot sees every contact that no trigger saw. Its trigram index is built after
-- (0192), at once rather than row by row.
INSERT INTO contact_search (contact_id, account_id, phonebook_id, name)
SELECT id, account_id, phonebook_id, name FROM contacts WHERE name <> ''
ON CONFLICT (contact_id) DO NOTHING;
