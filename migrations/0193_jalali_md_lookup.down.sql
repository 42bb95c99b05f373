CREATE OR REPLACE FUNCTION jalali_md(d date) RETURNS int
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN jalali_md(extract(year FROM d)::int, extract(month FROM d)::int, extract(day FROM d)::int);
