DELETE FROM operator_prefixes WHERE length(prefix) <> 5;
ALTER TABLE operator_prefixes DROP CONSTRAINT operator_prefixes_prefix_check;
ALTER TABLE operator_prefixes ADD CONSTRAINT operator_prefixes_prefix_check
    CHECK (prefix ~ '^989[0-9]{2}$');
