ALTER TABLE inbox_parts DROP COLUMN ucs2;
