DROP TABLE IF EXISTS assistant_usage;
DROP TABLE IF EXISTS assistant_messages;
DROP TABLE IF EXISTS assistant_conversations;
