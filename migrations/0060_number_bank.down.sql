DROP FUNCTION IF EXISTS bank_masked(text, text);
DROP TABLE IF EXISTS bank_place_counts, bank_meta, bank_numbers, bank_towers, job_subcategories, job_categories,
    geo_cities, geo_counties, geo_provinces;
-- The postgis extension is left installed: other databases objects may use it.
