CREATE OR REPLACE FUNCTION bank_masked(send_type text, mobile text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT CASE WHEN send_type IN ('city_province', 'business', 'postal_code', 'map', 'tower_irancell')
        THEN '0' || substr(mobile, 3, 3) || '***' || right(mobile, 4) ELSE mobile END
$$;

CREATE OR REPLACE FUNCTION shown_mobile(masked boolean, mobile text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT CASE WHEN masked THEN '0' || substr(mobile, 3, 3) || '***' || right(mobile, 4) ELSE mobile END
$$;
