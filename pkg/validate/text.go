package validate

import (
	"bytes"
	"encoding/json"
	"strings"
	"unicode/utf8"
)

// MsgBadText refuses text holding a NUL character or bytes that are not UTF-8:
// no name, message, or search term legitimately holds them, and PostgreSQL
// cannot store them.
const MsgBadText = "متن ارسال شده شامل نویسه‌های نامعتبر است"

// FieldBody names a bad character whose JSON field is unknown.
const FieldBody = "body"

// CleanText fails with MsgBadText on field when s is not valid UTF-8 or holds a NUL.
func CleanText(field, s string) error {
	if !IsCleanText(s) {
		return fail(field, MsgBadText)
	}
	return nil
}

// IsCleanText reports whether s is valid UTF-8 without a NUL character.
func IsCleanText(s string) bool {
	return utf8.ValidString(s) && strings.IndexByte(s, 0) < 0
}

// CleanJSON checks a JSON document the same way: its bytes must be UTF-8 (the
// decoder would silently turn the rest into U+FFFD) and no string in it, key or
// value, may decode to a NUL (written \u0000). The error names the field holding
// the bad string when it can. A document that is not JSON is left to the decoder.
func CleanJSON(raw []byte) error {
	if !utf8.Valid(raw) {
		return fail(FieldBody, MsgBadText)
	}
	if bytes.IndexByte(raw, 0) < 0 && !bytes.Contains(raw, []byte(`\u0000`)) {
		return nil // the common case: nothing can decode to a NUL
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	field := FieldBody
	for {
		tok, err := dec.Token()
		if err != nil {
			return nil // the end, or not JSON: the decoder answers that
		}
		s, ok := tok.(string)
		if !ok {
			continue
		}
		if strings.IndexByte(s, 0) >= 0 {
			return fail(field, MsgBadText)
		}
		field = s // the key before a value (a harmless guess inside arrays)
	}
}
