-- Drafts of the targeted sends (docs/targeted-sends.md): the five bank methods save
-- their wizard like the others, with the audience (pkg/bank Target) as JSON.
ALTER TABLE drafts DROP CONSTRAINT drafts_type_check;
ALTER TABLE drafts ADD CONSTRAINT drafts_type_check CHECK (type IN ('quick', 'file', 'keyword', 'peer_to_peer', 'phonebook',
    'city_province', 'business', 'postal_code', 'map', 'tower_irancell'));
ALTER TABLE drafts ADD COLUMN target jsonb;
