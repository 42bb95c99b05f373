-- migrate: no-transaction
-- migrate: contract contacts_name_trgm_idx contacts_mobile_trgm_idx
-- Names are searched in contact_search (0190-0192), numbers by prefix on
-- contacts_mobile_idx: the trigram indexes of 0005 only slowed every added contact.
-- A release before this one that still serves during a rolling upgrade finds the
-- same contacts by a slower scan.
DROP INDEX CONCURRENTLY IF EXISTS contacts_name_trgm_idx;
DROP INDEX CONCURRENTLY IF EXISTS contacts_mobile_trgm_idx;
