-- Banner rules (spec §3 Banner): where a banner shows (a thin strip above the
-- dashboard shows only the first; the carousel loops the rest) and what a click does
-- (open a popup, follow the link in the same window, or in a new tab).
ALTER TABLE content_items
    ADD COLUMN placement text NOT NULL DEFAULT 'carousel' CHECK (placement IN ('strip', 'carousel')),
    ADD COLUMN action text NOT NULL DEFAULT 'new_tab' CHECK (action IN ('popup', 'same_window', 'new_tab'));
