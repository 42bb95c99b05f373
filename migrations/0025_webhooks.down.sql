DROP TRIGGER IF EXISTS sends_webhook_status ON sends;
DROP FUNCTION IF EXISTS webhook_send_status();
DROP TABLE IF EXISTS webhook_events;
DROP TABLE IF EXISTS webhook_deliveries;
DROP TABLE IF EXISTS webhook_endpoints;
