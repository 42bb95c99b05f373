-- The sandbox route (docs/developers.md): recipients of a sandbox API key's send
-- have operator 'sandbox', cost 0 and reach only the simulator's sandbox port.
-- It has no prefixes and no tariff: nothing routes a real send to it.
INSERT INTO operators (code, name, name_fa) VALUES ('sandbox', 'Sandbox', 'آزمایشی (sandbox)');
