DELETE FROM review_items WHERE kind = 'link';
ALTER TABLE tracked_links DROP COLUMN review_note;
ALTER TABLE tracked_links DROP COLUMN status;
