DROP TABLE IF EXISTS bank_optout;
