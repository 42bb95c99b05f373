-- Tracked link targets are moderated (issue 38 items 7 and 17): a new link whose
-- target the moderation rules would hold waits for staff review (review queue
-- "link") and neither redirects nor goes into a text until approved; a rejected link
-- keeps its reason. Links made before this migration were accepted under the old
-- rules and stay approved.
ALTER TABLE tracked_links ADD COLUMN status text NOT NULL DEFAULT 'approved'
    CHECK (status IN ('pending', 'approved', 'rejected'));
ALTER TABLE tracked_links ADD COLUMN review_note text NOT NULL DEFAULT '';
ALTER TABLE tracked_links ALTER COLUMN status SET DEFAULT 'pending';
