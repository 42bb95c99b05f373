DROP FUNCTION IF EXISTS part_states_merge(text, text);
DROP FUNCTION IF EXISTS part_states_receipt(text, smallint[], smallint[]);
DROP FUNCTION IF EXISTS part_states_open(text, smallint[]);
