-- Roll-ups of the number bank so that map and business counts do not read the
-- numbers they count (docs/targeted-sends.md, "Counting at scale").
--
-- Every number sits in a grid cell of 1/1024 degree (about 109 × 90 m in Iran):
-- cell = floor(lon × 1024) << 20 | floor(lat × 1024). A coarser cell of level L
-- (1/2^L degree) is the same key with both halves shifted right by 10 − L.
ALTER TABLE bank_numbers ADD COLUMN cell bigint GENERATED ALWAYS AS
    ((floor(lon::float8 * 1024)::bigint << 20) | floor(lat::float8 * 1024)::bigint) STORED;
CREATE INDEX bank_numbers_cell ON bank_numbers (cell);

-- Points per cell at levels 4 (1/16°) to 10 (1/1024°): one row per occupied cell,
-- its groups (operator × 18 + gender × 6 + age band; operators mci 0, irancell 1,
-- rightel 2; 0: unknown) and the numbers of each. A map count sums the cells
-- wholly inside the shape and counts only the numbers of the cells on its edge.
-- Rewritten with the bank (`api seed-bank`), like bank_place_counts.
CREATE TABLE bank_cell_counts (
    level  smallint NOT NULL,
    cell   bigint NOT NULL,
    groups smallint[] NOT NULL,
    n      integer[] NOT NULL,
    PRIMARY KEY (level, cell)
);

-- Business numbers by province, category, sub-category, operator, gender and age
-- band (0: unknown): category counts and business targets named by category,
-- sub-category and province. Rewritten with the bank.
CREATE TABLE bank_job_counts (
    province    smallint NOT NULL,
    category    smallint NOT NULL,
    subcategory smallint NOT NULL,
    operator    text NOT NULL,
    gender      smallint NOT NULL,
    age_band    smallint NOT NULL,
    n           bigint NOT NULL
);
CREATE INDEX bank_job_counts_category ON bank_job_counts (category);
CREATE INDEX bank_job_counts_subcategory ON bank_job_counts (subcategory);

-- The bank changed shape: a bank seeded before this migration is seeded again.
DELETE FROM bank_meta;
