-- Bank numbers keep only two final digits when shown (989121234567 → 0912*****67):
-- with four, a known number's mask in a paid bank send's recipient list told the
-- account, almost surely, that the bank held that number (docs/security.md).
CREATE OR REPLACE FUNCTION bank_masked(send_type text, mobile text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT CASE WHEN send_type IN ('city_province', 'business', 'postal_code', 'map', 'tower_irancell')
        THEN '0' || substr(mobile, 3, 3) || '*****' || right(mobile, 2) ELSE mobile END
$$;

CREATE OR REPLACE FUNCTION shown_mobile(masked boolean, mobile text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT CASE WHEN masked THEN '0' || substr(mobile, 3, 3) || '*****' || right(mobile, 2) ELSE mobile END
$$;
