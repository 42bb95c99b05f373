DELETE FROM drafts WHERE type IN ('city_province', 'business', 'postal_code', 'map', 'tower_irancell');
ALTER TABLE drafts DROP COLUMN IF EXISTS target;
ALTER TABLE drafts DROP CONSTRAINT drafts_type_check;
ALTER TABLE drafts ADD CONSTRAINT drafts_type_check CHECK (type IN ('quick', 'file', 'keyword', 'peer_to_peer', 'phonebook'));
