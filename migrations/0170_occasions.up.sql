-- Occasion messages («پیام مناسبتی», docs/campaigns.md): a daily campaign whose
-- phonebook send reaches the contacts whose date (the birth date or a date feature)
-- falls, by its Jalali month and day, on the run day (or N days after it).
--
-- jalali_md is the Jalali month*100 + day of a Gregorian date: the arithmetic of
-- the jdf library, the same as persian.GregorianToJalali (pkg/send's test compares
-- them for every day of several years). IMMUTABLE, so an index can hold it.
CREATE FUNCTION jalali_md(gy int, gm int, gd int) RETURNS int
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
DECLARE
    gdm  int[] := ARRAY[0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334];
    gy2  int := CASE WHEN gm > 2 THEN gy + 1 ELSE gy END;
    days int;
BEGIN
    IF gm < 1 OR gm > 12 OR gd < 1 OR gd > 31 OR gy < 1 THEN
        RETURN NULL;
    END IF;
    days := 355666 + 365 * gy + (gy2 + 3) / 4 - (gy2 + 99) / 100 + (gy2 + 399) / 400 + gd + gdm[gm];
    days := days % 12053 % 1461;
    IF days > 365 THEN
        days := (days - 1) % 365;
    END IF;
    IF days < 186 THEN
        RETURN (1 + days / 31) * 100 + 1 + days % 31;
    END IF;
    RETURN (7 + (days - 186) / 30) * 100 + 1 + (days - 186) % 30;
END $$;

-- A date column.
CREATE FUNCTION jalali_md(d date) RETURNS int
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN jalali_md(extract(year FROM d)::int, extract(month FROM d)::int, extract(day FROM d)::int);

-- A date feature's value as contacts.features stores it (YYYY-MM-DD); NULL for
-- anything else.
CREATE FUNCTION jalali_md_text(v text) RETURNS int
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN CASE WHEN v ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$'
    THEN jalali_md(substr(v, 1, 4)::int, substr(v, 6, 2)::int, substr(v, 9, 2)::int) END;

-- The birthdays of a day are found by an index on jalali_md(birth_date), built
-- without blocking writes by 0171.

-- A run of an occasion campaign that found no contact with the occasion that day:
-- nothing was sent or charged, and it is no failure. The check is widened (an
-- expand step, docs/upgrades.md): added NOT VALID, validated by 0171 outside this
-- transaction's lock.
ALTER TABLE campaign_runs DROP CONSTRAINT IF EXISTS campaign_runs_status_check;
ALTER TABLE campaign_runs ADD CONSTRAINT campaign_runs_status_check CHECK (status IN ('sent', 'failed', 'empty')) NOT VALID;
