DROP TABLE IF EXISTS sandbox_bank_payments;
DROP TABLE IF EXISTS payments;
