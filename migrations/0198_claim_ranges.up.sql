-- Claims that leave their recipients alone (docs/architecture.md §3.1): a gateway's
-- claim is its recipient_claims row alone, the recipients stay queued (5) and every
-- reader takes a queued recipient named by a live claim as being submitted. One row
-- write a recipient fewer than the claim's status update (5 → 7).
--
-- The previous release's processes know only status 7: a gateway of it would claim
-- the recipients of a new claim again, and its API's stop would refund them. So a
-- database that already sends (an upgrade) starts in 'rows' mode, the new release
-- claiming with status 7 as before, and the operator switches to 'ranges' once every
-- process runs the new release (`chapar-api admin claim-mode ranges`,
-- docs/deployment.md). A new database starts in 'ranges'.
INSERT INTO settings (key, value)
SELECT 'claim_mode', to_jsonb(CASE WHEN EXISTS (SELECT 1 FROM sends) THEN 'rows' ELSE 'ranges' END)
ON CONFLICT (key) DO NOTHING;
