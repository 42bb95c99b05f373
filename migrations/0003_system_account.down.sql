DELETE FROM accounts WHERE id = (SELECT (value #>> '{}')::bigint FROM settings WHERE key = 'system_account');
DELETE FROM settings WHERE key = 'system_account';
