package phonebook

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"
)

// qCopyContacts is the import's COPY, in PostgreSQL's binary format: the worker
// writes each row's fields itself (copyRow), without a []any and a type lookup per
// value, and the server parses no text.
const qCopyContacts = `COPY contacts (account_id, phonebook_id, mobile, name, gender, birth_date, tag_ids, features, import_id)
FROM STDIN (FORMAT binary)`

// copyContacts COPYs the fresh rows into contacts.
func copyContacts(ctx context.Context, tx pgx.Tx, im *Import, rows []contactRow, fresh []int) (int64, error) {
	w := copyWriter{b: make([]byte, 0, 19+len(fresh)*160)}
	w.b = append(w.b, "PGCOPY\n\xff\r\n\x00"...)
	w.b = binary.BigEndian.AppendUint64(w.b, 0) // flags, header extension length
	for _, i := range fresh {
		w.row(im, &rows[i])
	}
	w.b = binary.BigEndian.AppendUint16(w.b, 0xffff) // the trailer
	tag, err := tx.Conn().PgConn().CopyFrom(ctx, bytes.NewReader(w.b), qCopyContacts)
	return tag.RowsAffected(), err
}

// copyWriter builds a binary COPY stream.
type copyWriter struct{ b []byte }

// row writes one contact: its 9 fields, each a length and the value's binary form.
func (w *copyWriter) row(im *Import, c *contactRow) {
	w.b = binary.BigEndian.AppendUint16(w.b, 9)
	w.int8(im.accountID)
	w.int8(im.PhonebookID)
	w.text(c.Mobile)
	w.text(c.Name)
	w.text(c.Gender)
	w.date(c.birth)
	w.int8s(c.TagIDs)
	w.jsonb(c.Features)
	w.int8(im.ID)
}

func (w *copyWriter) length(n int) { w.b = binary.BigEndian.AppendUint32(w.b, uint32(int32(n))) }

func (w *copyWriter) int8(v int64) {
	w.length(8)
	w.b = binary.BigEndian.AppendUint64(w.b, uint64(v))
}

func (w *copyWriter) text(s string) {
	w.length(len(s))
	w.b = append(w.b, s...)
}

// pgEpoch is PostgreSQL's day 0 of dates, 2000-01-01, as a Unix day.
const pgEpoch = 10957

// date writes a day (its calendar date, whatever its zone), or NULL for the zero time.
func (w *copyWriter) date(t time.Time) {
	if t.IsZero() {
		w.length(-1)
		return
	}
	y, m, d := t.Date()
	w.length(4)
	w.b = binary.BigEndian.AppendUint32(w.b, uint32(int32(time.Date(y, m, d, 0, 0, 0, 0, time.UTC).Unix()/86400-pgEpoch)))
}

// int8s writes a bigint[] (one dimension, no NULLs; no dimension when empty).
func (w *copyWriter) int8s(ids []int64) {
	const int8OID = 20
	if len(ids) == 0 {
		w.length(12)
		w.b = binary.BigEndian.AppendUint32(w.b, 0)
		w.b = binary.BigEndian.AppendUint32(w.b, 0)
		w.b = binary.BigEndian.AppendUint32(w.b, int8OID)
		return
	}
	w.length(20 + 12*len(ids))
	for _, v := range []uint32{1, 0, int8OID, uint32(len(ids)), 1} { // ndim, flags, type, size, lower bound
		w.b = binary.BigEndian.AppendUint32(w.b, v)
	}
	for _, id := range ids {
		w.int8(id)
	}
}

// jsonb writes a contact's features (values are int64 or string, as Feature.value
// gives them) as jsonb: a version byte and the JSON text.
func (w *copyWriter) jsonb(features map[string]any) {
	at := len(w.b)
	w.length(0) // patched below
	w.b = append(w.b, 1, '{')
	first := true
	for k, v := range features {
		if !first {
			w.b = append(w.b, ',')
		}
		first = false
		w.b = appendJSONString(w.b, k)
		w.b = append(w.b, ':')
		switch v := v.(type) {
		case int64:
			w.b = strconv.AppendInt(w.b, v, 10)
		case string:
			w.b = appendJSONString(w.b, v)
		default:
			j, _ := json.Marshal(v)
			w.b = append(w.b, j...)
		}
	}
	w.b = append(w.b, '}')
	binary.BigEndian.PutUint32(w.b[at:], uint32(len(w.b)-at-4))
}

// appendJSONString appends s as a JSON string. s is valid UTF-8 (it was read from
// a text column); only quotes, backslashes and control characters are escaped.
func appendJSONString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"' || c == '\\':
			b = append(b, '\\', c)
		case c < 0x20:
			b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
		default:
			b = append(b, c)
		}
	}
	return append(b, '"')
}
