-- Deltas not folded yet are applied before the table goes.
UPDATE sends s SET submitted = s.submitted + d.submitted, rejected = s.rejected + d.rejected,
    partial = s.partial + d.partial, delivered = s.delivered + d.delivered, undelivered = s.undelivered + d.undelivered
FROM (SELECT send_id, sum(submitted) AS submitted, sum(rejected) AS rejected, sum(partial) AS partial,
        sum(delivered) AS delivered, sum(undelivered) AS undelivered
      FROM send_count_deltas GROUP BY send_id) d
WHERE s.id = d.send_id;
DROP TABLE send_count_deltas;
ALTER TABLE pending_receipts RESET (autovacuum_vacuum_scale_factor, autovacuum_vacuum_threshold, autovacuum_vacuum_cost_delay);
