// Package inbox owns received (MO) messages: each is stored in the inbox of the
// account that owns the line it was sent to, and a body of «11» puts the sender on
// that account's cancel-11 list (every later send skips and does not charge it),
// while «12» takes it off again.
package inbox

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/chapar/chapar/pkg/validate"
)

// MO is one inbound message as the gateway recorded it.
type MO struct {
	StreamID   string // the inbound stream entry id: makes a re-applied message a no-op
	Operator   string
	Sender     string // the handset, 98XXXXXXXXXX
	Line       string // our line it was sent to
	Text       string
	ReceivedAt time.Time
}

// Stored is an MO that reached an account.
type Stored struct {
	AccountID int64
	ID        int64
	MO
}

// Service stores inbound messages.
type Service struct {
	pool *pgxpool.Pool
	// OnStored, when set, is called with the new messages inside Apply's
	// transaction (the webhook outbox), so they are stored together or not at all.
	OnStored func(ctx context.Context, tx pgx.Tx, ms []Stored) error
}

// New returns the inbox service.
func New(pool *pgxpool.Pool) *Service { return &Service{pool: pool} }

// Keyword returns "11", "12" or "" for a message body (Persian/Arabic digits and
// spaces tolerated).
func Keyword(text string) string {
	t := strings.TrimSpace(validate.ToLatinDigits(text))
	t = strings.Trim(t, " \u200c\u200f\u200e.")
	switch t {
	case "11", "12":
		return t
	}
	return ""
}

// Apply stores MO messages in one transaction and applies the 11/12 keywords. It
// returns the messages that were new and reached an account.
func (s *Service) Apply(ctx context.Context, mos []MO) ([]Stored, error) {
	var out []Stored
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		for _, m := range mos {
			sender := m.Sender
			if n, ok := validate.NormalizeMobile(sender); ok {
				sender = n
			}
			at := m.ReceivedAt
			if at.IsZero() {
				at = time.Now()
			}
			var st Stored
			err := tx.QueryRow(ctx, `INSERT INTO inbox (account_id, line, sender, text, operator, stream_id, received_at)
				SELECT l.account_id, l.number, $2, $3, $4, $5, $6 FROM lines l WHERE l.number = $1 AND l.account_id IS NOT NULL
				ON CONFLICT (stream_id) DO NOTHING RETURNING id, account_id`,
				m.Line, sender, m.Text, m.Operator, m.StreamID, at).Scan(&st.ID, &st.AccountID)
			if err == pgx.ErrNoRows {
				continue // a repeat, or a line no account owns
			}
			if err != nil {
				return fmt.Errorf("store mo: %w", err)
			}
			st.MO = m
			st.Sender = sender
			switch Keyword(m.Text) {
			case "11":
				_, err = tx.Exec(ctx, `INSERT INTO blacklist (account_id, kind, mobile, source) VALUES ($1, 'cancel11', $2, 'inbound')
					ON CONFLICT DO NOTHING`, st.AccountID, sender)
			case "12":
				_, err = tx.Exec(ctx, `DELETE FROM blacklist WHERE account_id = $1 AND kind = 'cancel11' AND mobile = $2`, st.AccountID, sender)
			}
			if err != nil {
				return fmt.Errorf("cancel-11 list: %w", err)
			}
			out = append(out, st)
		}
		if s.OnStored != nil {
			return s.OnStored(ctx, tx, out)
		}
		return nil
	})
	return out, err
}
