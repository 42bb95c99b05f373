-- Banner images (spec §3 Banner: mainFiles with desktop and mobile pictures; a popup
-- banner's dialog shows the picture linking to its target). Empty keeps the text face.
ALTER TABLE content_items
    ADD COLUMN image text NOT NULL DEFAULT '',
    ADD COLUMN image_mobile text NOT NULL DEFAULT '';
