DROP INDEX IF EXISTS sends_holding;
