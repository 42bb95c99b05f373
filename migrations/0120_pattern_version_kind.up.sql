-- A pattern's kind (otp, transactional, normal) decides its send type and lane, so it
-- is reviewed content: each version carries its own kind, and a pattern sends as the
-- kind of its approved version (issue 38 item 19). patterns.kind stays the latest
-- version's kind (lists and filters).
ALTER TABLE pattern_versions ADD COLUMN kind text CHECK (kind IN ('otp', 'transactional', 'normal'));
UPDATE pattern_versions v SET kind = p.kind FROM patterns p WHERE p.id = v.pattern_id;
ALTER TABLE pattern_versions ALTER COLUMN kind SET NOT NULL;
