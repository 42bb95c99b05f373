ALTER TABLE pattern_versions DROP COLUMN kind;
