DELETE FROM settings WHERE key = 'inbound_format';
