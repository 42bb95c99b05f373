-- The platform's own account: it owns the messages the platform sends for itself
-- (one-time codes), so they never appear in a customer's reports or bill.
INSERT INTO accounts (name) VALUES ('سامانه چاپار');
INSERT INTO settings (key, value) VALUES ('system_account', to_jsonb(currval('accounts_id_seq')));
