-- Packed inbound entries (docs/architecture.md §3, step 4): a gateway writes a
-- receipt or MO part to the smpp:inbound stream as one field holding every value,
-- where it wrote one field a value. The previous release's workers read fields by
-- name, so a database that already sends (an upgrade) starts in 'fields'; the
-- operator switches to 'packed' once every worker runs the new release
-- (`chapar-api admin inbound-format packed`, upgrades.md). A new database starts
-- in 'packed'. Every worker of this release reads both.
INSERT INTO settings (key, value)
SELECT 'inbound_format', to_jsonb(CASE WHEN EXISTS (SELECT 1 FROM sends) THEN 'fields' ELSE 'packed' END)
ON CONFLICT (key) DO NOTHING;
