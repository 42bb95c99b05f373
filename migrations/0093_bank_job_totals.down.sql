DROP TABLE IF EXISTS bank_job_totals;
