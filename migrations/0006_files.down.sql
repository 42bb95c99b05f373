DROP TABLE IF EXISTS file_row_errors;
DROP TABLE IF EXISTS file_rows;
DROP TABLE IF EXISTS files;
DROP FUNCTION IF EXISTS file_rows_cascade();
