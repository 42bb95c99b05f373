package inbox

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf16"

	"github.com/jackc/pgx/v5"
)

// DefaultPartWait is how long the parts of a concatenated message wait for the
// missing ones.
const DefaultPartWait = 2 * time.Minute

// partsKept is how long assembled parts stay, so a repeated part is recognised.
const partsKept = 24 * time.Hour

type part struct {
	streamID   string
	seq        int
	text       string
	ucs2       []byte
	receivedAt time.Time
}

// groupKey names the message a part belongs to (8- and 16-bit references alike).
func groupKey(m MO) string {
	return m.Operator + "|" + m.Sender + "|" + m.Line + "|" + strconv.Itoa(m.Ref) + "|" + strconv.Itoa(m.Total)
}

// assemble passes single messages through and files the parts of concatenated
// ones, returning each message its part completed. Parts are taken in key order,
// each group under a transaction lock, so two consumers holding parts of the same
// message neither miss each other nor deadlock.
func assemble(ctx context.Context, tx pgx.Tx, mos []MO) ([]MO, error) {
	var whole, multi []MO
	for _, m := range mos {
		if m.Total > 1 {
			multi = append(multi, m)
		} else {
			whole = append(whole, m)
		}
	}
	slices.SortStableFunc(multi, func(a, b MO) int { return cmp.Compare(groupKey(a), groupKey(b)) })
	for _, m := range multi {
		done, ok, err := addPart(ctx, tx, m)
		if err != nil {
			return nil, err
		}
		if ok {
			whole = append(whole, done)
		}
	}
	return whole, nil
}

// addPart files one part; ok reports that it completed its message.
func addPart(ctx context.Context, tx pgx.Tx, m MO) (MO, bool, error) {
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtext($1))`, groupKey(m)); err != nil {
		return m, false, fmt.Errorf("lock parts: %w", err)
	}
	tag, err := tx.Exec(ctx, `INSERT INTO inbox_parts (stream_id, operator, sender, line, ref, total, seq, text, received_at, ucs2)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT (stream_id) DO NOTHING`,
		m.StreamID, m.Operator, m.Sender, m.Line, m.Ref, m.Total, m.Seq, m.Text, m.ReceivedAt, m.UCS2)
	if err != nil {
		return m, false, fmt.Errorf("store part: %w", err)
	}
	if tag.RowsAffected() == 0 {
		return m, false, nil // a repeat
	}
	parts, err := groupParts(ctx, tx, m)
	if err != nil || len(parts) < m.Total {
		return m, false, err
	}
	return join(ctx, tx, m, parts, false)
}

// groupParts reads the waiting parts of m's message, one per sequence number.
func groupParts(ctx context.Context, tx pgx.Tx, m MO) ([]part, error) {
	rows, err := tx.Query(ctx, `SELECT DISTINCT ON (seq) stream_id, seq, text, ucs2, received_at FROM inbox_parts
		WHERE operator = $1 AND sender = $2 AND line = $3 AND ref = $4 AND total = $5 AND NOT done
		ORDER BY seq, received_at`, m.Operator, m.Sender, m.Line, m.Ref, m.Total)
	if err != nil {
		return nil, fmt.Errorf("read parts: %w", err)
	}
	var out []part
	for rows.Next() {
		var p part
		if err := rows.Scan(&p.streamID, &p.seq, &p.text, &p.ucs2, &p.receivedAt); err != nil {
			rows.Close()
			return nil, fmt.Errorf("read parts: %w", err)
		}
		out = append(out, p)
	}
	rows.Close()
	return out, rows.Err()
}

// join marks the group's parts done and returns the message they make (the
// first part's stream id, prefixed, keys it in the inbox).
func join(ctx context.Context, tx pgx.Tx, m MO, parts []part, incomplete bool) (MO, bool, error) {
	if _, err := tx.Exec(ctx, `UPDATE inbox_parts SET done = true WHERE operator = $1 AND sender = $2 AND line = $3
		AND ref = $4 AND total = $5 AND NOT done`, m.Operator, m.Sender, m.Line, m.Ref, m.Total); err != nil {
		return m, false, fmt.Errorf("close parts: %w", err)
	}
	last := parts[0].receivedAt
	for _, p := range parts {
		if p.receivedAt.After(last) {
			last = p.receivedAt
		}
	}
	m.StreamID, m.Text, m.ReceivedAt = "mp:"+parts[0].streamID, joinText(parts), last
	m.Parts, m.Incomplete, m.Seq = len(parts), incomplete, 0
	return m, true, nil
}

// joinText is the text of parts in order. Consecutive UCS-2 parts (stored with
// their user data) are decoded together, so a surrogate pair split between two
// of them makes its one character; a missing part between two breaks the run.
func joinText(parts []part) string {
	var b strings.Builder
	var run []byte
	flush := func() {
		b.WriteString(decodeUCS2(run))
		run = run[:0]
	}
	for i, p := range parts {
		if p.ucs2 == nil || (i > 0 && p.seq != parts[i-1].seq+1) {
			flush()
		}
		if p.ucs2 == nil {
			b.WriteString(p.text)
			continue
		}
		run = append(run, p.ucs2[:len(p.ucs2)&^1]...)
	}
	flush()
	return b.String()
}

// decodeUCS2 decodes UCS-2 (UTF-16) big endian; an unpaired surrogate becomes U+FFFD.
func decodeUCS2(b []byte) string {
	u := make([]uint16, len(b)/2)
	for i := range u {
		u[i] = uint16(b[2*i])<<8 | uint16(b[2*i+1])
	}
	return strings.ReplaceAll(string(utf16.Decode(u)), "\x00", "")
}

// FlushParts stores the messages whose parts waited longer than PartWait as what
// arrived, flagged incomplete, and forgets parts assembled long ago. It returns
// the stored messages (the worker's lead consumer calls it every few seconds).
func (s *Service) FlushParts(ctx context.Context) ([]Stored, error) {
	wait := cmp.Or(s.PartWait, DefaultPartWait)
	var out []Stored
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `DELETE FROM inbox_parts WHERE done AND received_at < now() - make_interval(secs => $1)`,
			partsKept.Seconds()); err != nil {
			return fmt.Errorf("purge parts: %w", err)
		}
		late, err := lateGroups(ctx, tx, wait)
		if err != nil {
			return err
		}
		var whole []MO
		for _, m := range late {
			if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtext($1))`, groupKey(m)); err != nil {
				return fmt.Errorf("lock parts: %w", err)
			}
			parts, err := groupParts(ctx, tx, m)
			if err != nil {
				return err
			}
			if len(parts) == 0 {
				continue // completed meanwhile
			}
			done, _, err := join(ctx, tx, m, parts, len(parts) < m.Total)
			if err != nil {
				return err
			}
			whole = append(whole, done)
		}
		if out, err = store(ctx, tx, whole); err != nil {
			return err
		}
		return s.after(ctx, tx, out)
	})
	return out, err
}

// lateGroups lists the messages whose first waiting part is older than wait.
func lateGroups(ctx context.Context, tx pgx.Tx, wait time.Duration) ([]MO, error) {
	rows, err := tx.Query(ctx, `SELECT operator, sender, line, ref, total FROM inbox_parts WHERE NOT done
		GROUP BY 1, 2, 3, 4, 5 HAVING min(received_at) < now() - make_interval(secs => $1)
		ORDER BY 1, 2, 3, 4, 5 LIMIT 1000`, wait.Seconds())
	if err != nil {
		return nil, fmt.Errorf("late parts: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (MO, error) {
		var m MO
		err := r.Scan(&m.Operator, &m.Sender, &m.Line, &m.Ref, &m.Total)
		return m, err
	})
	if err != nil {
		return nil, fmt.Errorf("late parts: %w", err)
	}
	slices.SortFunc(out, func(a, b MO) int { return cmp.Compare(groupKey(a), groupKey(b)) })
	return out, nil
}
