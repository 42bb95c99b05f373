-- A part's receipt is recorded on its recipient, not on its message id: part_states
-- (0017) gains 'd' (delivered) and 'f' (not delivered), written by the receipt's
-- update of the recipient, which it makes anyway. message_ids.stat is no longer
-- written (one row write a recipient fewer: docs/architecture.md §3); it is still
-- read as final for the rows an earlier release set, until they expire.
--
-- A part is open while its byte is not 'd' or 'f'. Part numbers start at 1. The
-- functions are evaluated on the row an update locks, so two consumers applying one
-- receipt at once count it once. One-part recipients (most) take the short branch.

-- part_states_open counts the parts of parts that are open in cur.
CREATE FUNCTION part_states_open(cur text, parts smallint[]) RETURNS int
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE
    WHEN length(cur) = 1 THEN CASE WHEN cur NOT IN ('d', 'f') AND 1 = ANY(parts) THEN 1 ELSE 0 END
    ELSE (SELECT count(*)::int FROM unnest(parts) AS p WHERE substr(cur, p, 1) NOT IN ('d', 'f'))
  END
$$;

-- part_states_receipt is cur with its open parts among delivered set to 'd' and
-- those among failed to 'f'.
CREATE FUNCTION part_states_receipt(cur text, delivered smallint[], failed smallint[]) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE
    WHEN cur IN ('d', 'f') THEN cur
    WHEN length(cur) = 1 THEN
      CASE WHEN 1 = ANY(delivered) THEN 'd' WHEN 1 = ANY(failed) THEN 'f' ELSE cur END
    ELSE coalesce((SELECT string_agg(CASE WHEN substr(cur, i, 1) IN ('d', 'f') THEN substr(cur, i, 1)
                                          WHEN i = ANY(delivered) THEN 'd' WHEN i = ANY(failed) THEN 'f'
                                          ELSE substr(cur, i, 1) END, '' ORDER BY i)
                   FROM generate_series(1, length(cur)) AS i), '')
  END
$$;

-- part_states_merge is upd (a reconciliation's new states) keeping every part of cur
-- that has its receipt already: a receipt applied meanwhile is not undone.
CREATE FUNCTION part_states_merge(cur text, upd text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE
    WHEN length(cur) <> length(upd) OR cur !~ '[df]' THEN upd
    ELSE (SELECT string_agg(CASE WHEN substr(cur, i, 1) IN ('d', 'f') THEN substr(cur, i, 1)
                                 ELSE substr(upd, i, 1) END, '' ORDER BY i)
          FROM generate_series(1, length(cur)) AS i)
  END
$$;
