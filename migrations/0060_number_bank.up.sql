-- The number bank of targeted sends (docs/targeted-sends.md): numbers the platform
-- sends to by place, business, postal code, map shape or Irancell tower. Customers
-- never see them: they count and send. The bank is global (not an account's) and is
-- (re)written whole by `api seed-bank`. PostGIS stores each number's point so map
-- counts are index-driven (GiST).
CREATE EXTENSION IF NOT EXISTS postgis;

CREATE TABLE geo_provinces (
    code    smallint PRIMARY KEY,
    name_fa text NOT NULL,
    name_en text NOT NULL,
    lon     double precision NOT NULL,
    lat     double precision NOT NULL
);

CREATE TABLE geo_counties (
    code     smallint PRIMARY KEY,
    province smallint NOT NULL REFERENCES geo_provinces(code) ON DELETE CASCADE,
    name_fa  text NOT NULL,
    name_en  text NOT NULL,
    lon      double precision NOT NULL,
    lat      double precision NOT NULL
);
CREATE INDEX geo_counties_province ON geo_counties (province);

-- Cities carry the county the generator placed them in and their centre.
CREATE TABLE geo_cities (
    id       integer PRIMARY KEY,
    province smallint NOT NULL REFERENCES geo_provinces(code) ON DELETE CASCADE,
    county   smallint NOT NULL REFERENCES geo_counties(code) ON DELETE CASCADE,
    name_fa  text NOT NULL,
    name_en  text NOT NULL,
    lon      double precision NOT NULL,
    lat      double precision NOT NULL
);
CREATE INDEX geo_cities_county ON geo_cities (county);
CREATE INDEX geo_cities_province ON geo_cities (province);

-- Business categories (اصناف), two levels.
CREATE TABLE job_categories (
    id      smallint PRIMARY KEY,
    name_fa text NOT NULL
);
CREATE TABLE job_subcategories (
    id       smallint PRIMARY KEY,
    category smallint NOT NULL REFERENCES job_categories(id) ON DELETE CASCADE,
    name_fa  text NOT NULL
);
CREATE INDEX job_subcategories_category ON job_subcategories (category);

-- Irancell cells (synthetic): dense in cities, sparse outside.
CREATE TABLE bank_towers (
    id     integer PRIMARY KEY,
    county smallint NOT NULL,
    lon    double precision NOT NULL,
    lat    double precision NOT NULL
);
CREATE INDEX bank_towers_county ON bank_towers (county);
CREATE INDEX bank_towers_place ON bank_towers (lon, lat);

-- One row per number; id is the number itself (98XXXXXXXXXX as an integer).
-- Rows are written in county order and by place inside a county, so the pages a
-- province, a county or a map shape needs sit together on disk.
CREATE TABLE bank_numbers (
    id          bigint PRIMARY KEY,
    operator    text NOT NULL,
    province    smallint NOT NULL,
    county      smallint NOT NULL,
    city        integer,
    postal      char(5) NOT NULL,
    lon         real NOT NULL,
    lat         real NOT NULL,
    geom        geometry(Point, 4326) GENERATED ALWAYS AS (ST_SetSRID(ST_MakePoint(lon, lat), 4326)) STORED,
    tower       integer,
    category    smallint,
    subcategory smallint,
    gender      smallint,  -- 1 male, 2 female, NULL unknown
    age_band    smallint   -- 1: 18–24, 2: 25–34, 3: 35–44, 4: 45–54, 5: 55+, NULL unknown
);
CREATE INDEX bank_numbers_province ON bank_numbers (province);
CREATE INDEX bank_numbers_county ON bank_numbers (county);
CREATE INDEX bank_numbers_city ON bank_numbers (city);
CREATE INDEX bank_numbers_subcategory ON bank_numbers (subcategory);
CREATE INDEX bank_numbers_category ON bank_numbers (category);
CREATE INDEX bank_numbers_postal ON bank_numbers (postal bpchar_pattern_ops);
CREATE INDEX bank_numbers_tower ON bank_numbers (tower);
CREATE INDEX bank_numbers_geom ON bank_numbers USING gist (geom);

-- What the bank was generated from: counts are cached under this version.
CREATE TABLE bank_meta (
    only_row     boolean PRIMARY KEY DEFAULT true CHECK (only_row),
    seed         bigint NOT NULL,
    size         bigint NOT NULL,
    generated_at timestamptz NOT NULL DEFAULT now()
);

-- Counts by place without reading the numbers: one row per province, county, city
-- (0: outside any city), postal prefix, operator, gender and age band (0: unknown).
-- Rewritten with the bank.
CREATE TABLE bank_place_counts (
    province smallint NOT NULL,
    county   smallint NOT NULL,
    city     integer NOT NULL,
    postal   char(5) NOT NULL,
    operator text NOT NULL,
    gender   smallint NOT NULL,
    age_band smallint NOT NULL,
    n        bigint NOT NULL
);
CREATE INDEX bank_place_counts_province ON bank_place_counts (province);
CREATE INDEX bank_place_counts_county ON bank_place_counts (county);
CREATE INDEX bank_place_counts_city ON bank_place_counts (city);
CREATE INDEX bank_place_counts_postal ON bank_place_counts (postal bpchar_pattern_ops);

-- A bank send's numbers as customers see them (reports, exports, webhooks):
-- 989121234567 → 0912***4567. Other sends' numbers are shown whole.
CREATE FUNCTION bank_masked(send_type text, mobile text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT CASE WHEN send_type IN ('city_province', 'business', 'postal_code', 'map', 'tower_irancell')
        THEN '0' || substr(mobile, 3, 3) || '***' || right(mobile, 4) ELSE mobile END
$$;
