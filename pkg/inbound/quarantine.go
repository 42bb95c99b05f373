package inbound

// Poison entries: an inbound entry that cannot be applied (a field that is not
// valid UTF-8, a malformed entry, or anything PostgreSQL refuses for it) is
// quarantined with its raw bytes and acknowledged, and everything read with it
// is applied: nothing a carrier sends may block anything else.

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/redis/go-redis/v9"

	"github.com/chapar/chapar/pkg/gateway"
	"github.com/chapar/chapar/pkg/validate"
)

// maxField bounds an address or message id: longer is not one (SMPP allows 65
// octets for a message id, 21 for an address).
const maxField = 65

// checkEntry refuses a parsed entry whose addresses or message ids cannot be
// stored: not valid UTF-8, holding NUL or other control characters, or too
// long. The text is cleaned instead (gateway.CleanText): a wrongly encoded byte
// costs one character, not the message. A receipt's line is not used, and is
// dropped rather than checked. "" means usable.
func checkEntry(in *gateway.Inbound) string {
	if in.Kind == gateway.KindReceipt {
		in.Line = ""
	}
	fields := []struct{ name, v string }{{gateway.FieldOperator, in.Operator}, {gateway.FieldMobile, in.Mobile},
		{gateway.FieldLine, in.Line}, {gateway.FieldMsgID, in.MsgID}}
	for _, alt := range in.MsgIDAlt {
		fields = append(fields, struct{ name, v string }{gateway.FieldMsgIDAlt, alt})
	}
	for _, f := range fields {
		switch {
		case !utf8.ValidString(f.v):
			return fmt.Sprintf("field %s is not valid UTF-8", f.name)
		case len(f.v) > maxField:
			return fmt.Sprintf("field %s is %d bytes long", f.name, len(f.v))
		case strings.ContainsFunc(f.v, func(r rune) bool { return r < 0x20 || r == 0x7F }):
			return fmt.Sprintf("field %s holds control characters", f.name)
		}
	}
	in.Text = gateway.CleanText(in.Text)
	in.State, in.Err = gateway.CleanText(in.State), gateway.CleanText(in.Err)
	return ""
}

// rawEntry is an entry's fields as "key=value" lines sorted by key, the values'
// bytes as Redis holds them; a packed entry's as it holds them (gateway.Unpacked),
// or its one field when it cannot be unpacked.
func rawEntry(values map[string]any) []byte {
	if f, ok := gateway.Unpacked(values); ok {
		values = f
	}
	keys := make([]string, 0, len(values))
	for k := range values {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var b []byte
	for _, k := range keys {
		b = append(b, k...)
		b = append(b, '=')
		switch v := values[k].(type) {
		case string:
			b = append(b, v...)
		case []byte:
			b = append(b, v...)
		default:
			b = fmt.Append(b, v)
		}
		b = append(b, '\n')
	}
	return b
}

// poisoned is an entry to quarantine and why.
type poisoned struct {
	msg    redis.XMessage
	reason string
}

// quarantine stores entries in inbound_quarantine (a repeat changes nothing),
// counts the new ones and logs each.
func (c *Consumer) quarantine(ctx context.Context, bad []poisoned) error {
	if len(bad) == 0 {
		return nil
	}
	ids, raws, reasons := make([]string, len(bad)), make([][]byte, len(bad)), make([]string, len(bad))
	for i, p := range bad {
		ids[i], raws[i], reasons[i] = p.msg.ID, rawEntry(p.msg.Values), gateway.CleanText(p.reason)
	}
	tag, err := c.Pool.Exec(ctx, `INSERT INTO inbound_quarantine (stream_id, raw, reason)
		SELECT * FROM unnest($1::text[], $2::bytea[], $3::text[]) ON CONFLICT (stream_id) DO NOTHING`, ids, raws, reasons)
	if err != nil {
		return fmt.Errorf("quarantine inbound entries: %w", err)
	}
	c.m().quarantined.Add(float64(tag.RowsAffected()))
	for _, p := range bad {
		slog.ErrorContext(ctx, "inbound entry quarantined", "id", p.msg.ID, "reason", p.reason)
	}
	return nil
}

// entryRejected reports whether PostgreSQL refused an apply for what the data
// is (a data exception, an integrity violation, a value too large to index):
// applying the same entries again fails again. Anything else (a deadlock, a lost
// connection, a cancelled context) is retried as it is.
func entryRejected(err error) bool {
	var pg *pgconn.PgError
	if !errors.As(err, &pg) || len(pg.Code) < 2 {
		return false
	}
	switch pg.Code[:2] {
	case "22", "23", "54":
		return true
	}
	return false
}

// QuarantineEntry is one quarantined entry as staff see it.
type QuarantineEntry struct {
	ID       int64  `json:"id"`
	StreamID string `json:"stream_id"`
	// RawHex is the entry's raw bytes (its fields as key=value lines) in hexadecimal.
	RawHex string    `json:"raw_hex"`
	Reason string    `json:"reason"`
	At     time.Time `json:"created_at"`
}

// Quarantine reads the quarantined entries for the back office.
type Quarantine struct{ pool *pgxpool.Pool }

// NewQuarantine returns the quarantine's reader.
func NewQuarantine(pool *pgxpool.Pool) *Quarantine { return &Quarantine{pool: pool} }

// List returns a page of quarantined entries, newest first, and their total.
func (q *Quarantine) List(ctx context.Context, p validate.Paging) ([]QuarantineEntry, int64, error) {
	var total int64
	if err := q.pool.QueryRow(ctx, `SELECT count(*) FROM inbound_quarantine`).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("count quarantine: %w", err)
	}
	rows, err := q.pool.Query(ctx, `SELECT id, stream_id, raw, reason, created_at FROM inbound_quarantine
		ORDER BY created_at DESC, id DESC LIMIT $1 OFFSET $2`, p.Limit, p.Offset())
	if err != nil {
		return nil, 0, fmt.Errorf("list quarantine: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (QuarantineEntry, error) {
		var e QuarantineEntry
		var raw []byte
		err := r.Scan(&e.ID, &e.StreamID, &raw, &e.Reason, &e.At)
		e.RawHex = hex.EncodeToString(raw)
		return e, err
	})
	if err != nil {
		return nil, 0, fmt.Errorf("list quarantine: %w", err)
	}
	return out, total, nil
}
