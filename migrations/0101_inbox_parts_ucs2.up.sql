-- A part of a concatenated UCS-2 message keeps its user data as sent: a character
-- outside the Basic Multilingual Plane (an emoji) may be split between two parts,
-- half a surrogate pair in each, and is decoded only once the parts are joined.
ALTER TABLE inbox_parts ADD COLUMN ucs2 bytea;
