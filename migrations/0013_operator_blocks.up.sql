-- Operator prefixes may name a whole 9XX range or a narrower 9XXX / 9XXXX block
-- (98 + three to five national digits): the numbering plan allocates some ranges
-- block by block (0999, 0995, 0998), and an override may need that precision.
-- Numbers matching no row take the operator the numbering plan allocated.
ALTER TABLE operator_prefixes DROP CONSTRAINT operator_prefixes_prefix_check;
ALTER TABLE operator_prefixes ADD CONSTRAINT operator_prefixes_prefix_check
    CHECK (prefix ~ '^989[0-9]{2,4}$');
