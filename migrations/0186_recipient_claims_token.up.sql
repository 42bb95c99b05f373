-- A claim's token: a random number the gateway chooses before it claims, so that
-- a claim whose answer was lost (the primary failed over while the commit was on
-- its way) can be found and given back once the gateway is connected again
-- (pkg/gateway store.giveBack). NULL for claims of releases before it.
ALTER TABLE recipient_claims ADD COLUMN IF NOT EXISTS token bigint;
