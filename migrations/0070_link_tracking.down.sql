DROP TABLE link_visitors;
DROP TABLE link_clicks;
DROP TABLE tracked_links;
ALTER TABLE accounts DROP COLUMN link_tracking;
