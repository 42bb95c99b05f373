DROP TABLE IF EXISTS drafts;
DROP TABLE IF EXISTS predefined_messages;
DROP TABLE IF EXISTS predefined_groups;
