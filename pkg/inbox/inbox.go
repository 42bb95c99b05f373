// Package inbox owns received (MO) messages: the parts of a concatenated message
// are put back together (parts.go), each message is stored in the inbox of the
// account that owns the line it was sent to unless the sender is on that account's
// receive blacklist, and a body of «11» puts the sender on that account's cancel-11
// list (every later send skips and does not charge it), while «12» takes it off
// again. The inbox page's list, read, delete and export are in list.go.
package inbox

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/chapar/chapar/pkg/bank"
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
	// Ref, Seq and Total place one part of a concatenated message (Total > 1).
	Ref, Seq, Total int
	// UCS2 is the user data of such a part when it is UCS-2, decoded only once
	// the parts are joined (a character may be split between two parts).
	UCS2 []byte
	// Parts is how many parts made a stored message; Incomplete that some never came.
	Parts      int
	Incomplete bool
}

// Stored is an MO that reached an account. Masked says its sender is a number of
// the bank the account reached through a targeted send (pkg/bank RecordReached):
// the customer sees it only as Shown.
type Stored struct {
	AccountID int64
	ID        int64
	Masked    bool
	MO
}

// Shown is the sender as the customer sees it: masked (0912*****67) or whole.
func (s Stored) Shown() string { return Shown(s.Masked, s.Sender) }

// Shown masks a number the customer must not see whole (989121234567 →
// 0912*****67), as SQL's shown_mobile (migration 0091).
func Shown(masked bool, mobile string) string {
	if !masked {
		return mobile
	}
	return bank.Mask(mobile)
}

// Service stores inbound messages.
type Service struct {
	pool *pgxpool.Pool
	// OnStored, when set, is called with the new messages inside Apply's
	// transaction (the webhook outbox), so they are stored together or not at all.
	OnStored func(ctx context.Context, tx pgx.Tx, ms []Stored) error
	// Answer, when set, is called next in the same transaction (the secretaries
	// and keyword readers), so a message is answered exactly once.
	Answer func(ctx context.Context, tx pgx.Tx, ms []Stored) error
	// PartWait is how long the parts of a concatenated message wait for the
	// missing ones before what arrived is stored, flagged (DefaultPartWait if 0).
	PartWait time.Duration
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

// Apply stores MO messages in one transaction and applies the 11/12 keywords. A
// part of a concatenated message waits for the others; the whole message is
// stored with the part that completes it. It returns the messages that were new
// and reached an account.
func (s *Service) Apply(ctx context.Context, mos []MO) ([]Stored, error) {
	var out []Stored
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		whole, err := assemble(ctx, tx, mos)
		if err != nil {
			return err
		}
		if out, err = store(ctx, tx, whole); err != nil {
			return err
		}
		return s.after(ctx, tx, out)
	})
	return out, err
}

// after runs the hooks on the messages stored in tx.
func (s *Service) after(ctx context.Context, tx pgx.Tx, out []Stored) error {
	if len(out) == 0 {
		return nil
	}
	if s.OnStored != nil {
		if err := s.OnStored(ctx, tx, out); err != nil {
			return err
		}
	}
	if s.Answer != nil {
		return s.Answer(ctx, tx, out)
	}
	return nil
}

// store inserts whole messages into their accounts' inboxes, skipping repeats,
// lines no account owns and senders on the receive blacklist; «11» and «12» act
// whatever the blacklist says.
func store(ctx context.Context, tx pgx.Tx, mos []MO) ([]Stored, error) {
	var out []Stored
	for _, m := range mos {
		if n, ok := validate.NormalizeMobile(m.Sender); ok {
			m.Sender = n
		}
		if m.ReceivedAt.IsZero() {
			m.ReceivedAt = time.Now()
		}
		if m.Parts < 1 {
			m.Parts = 1
		}
		if err := cancel11(ctx, tx, m); err != nil {
			return nil, err
		}
		var st Stored
		err := tx.QueryRow(ctx, `INSERT INTO inbox (account_id, line, sender, text, operator, stream_id, received_at, parts, incomplete, masked)
			SELECT l.account_id, l.number, $2, $3, $4, $5, $6, $7, $8, `+maskedSender+`
			FROM lines l WHERE l.number = $1 AND l.account_id IS NOT NULL
			AND NOT EXISTS (SELECT 1 FROM blacklist b WHERE b.account_id = l.account_id AND b.kind = 'receive' AND b.mobile = $2)
			ON CONFLICT (stream_id) DO NOTHING RETURNING id, account_id, masked`,
			m.Line, m.Sender, m.Text, m.Operator, m.StreamID, m.ReceivedAt, m.Parts, m.Incomplete).Scan(&st.ID, &st.AccountID, &st.Masked)
		if err == pgx.ErrNoRows {
			continue // a repeat, a line no account owns, or a blacklisted sender
		}
		if err != nil {
			return nil, fmt.Errorf("store mo: %w", err)
		}
		st.MO = m
		out = append(out, st)
	}
	return out, nil
}

// maskedSender says (in SQL, for the account l.account_id and the sender $2)
// whether a message is masked: its sender is a number a bank send of the account
// reached, and no earlier message of the sender was shown whole (masking a number
// the account has already seen would only tell that a bank send reached it).
const maskedSender = `CASE WHEN EXISTS (SELECT 1 FROM bank_reached k WHERE k.account_id = l.account_id AND k.mobile = $2)
	THEN NOT EXISTS (SELECT 1 FROM inbox w WHERE w.account_id = l.account_id AND w.sender = $2 AND NOT w.masked) ELSE false END`

// cancel11 applies «11» (opt out) and «12» (opt back in) for the line's account.
// A masked sender (maskedSender) opts out on bank_optout instead of the account's
// cancel-11 list (migration 0110): that list is read by number, and would tell
// which number a masked sender is.
func cancel11(ctx context.Context, tx pgx.Tx, m MO) error {
	const reached = `(` + maskedSender + `)`
	var err error
	switch Keyword(m.Text) {
	case "11":
		_, err = tx.Exec(ctx, `WITH l AS (SELECT account_id FROM lines WHERE number = $1 AND account_id IS NOT NULL),
			b AS (INSERT INTO bank_optout (account_id, mobile) SELECT account_id, $2 FROM l WHERE `+reached+`
				ON CONFLICT DO NOTHING)
			INSERT INTO blacklist (account_id, kind, mobile, source)
			SELECT account_id, 'cancel11', $2, 'inbound' FROM l WHERE NOT `+reached+`
			ON CONFLICT DO NOTHING`, m.Line, m.Sender)
	case "12":
		_, err = tx.Exec(ctx, `WITH l AS (SELECT account_id FROM lines WHERE number = $1 AND account_id IS NOT NULL),
			b AS (DELETE FROM bank_optout o USING l WHERE o.account_id = l.account_id AND o.mobile = $2)
			DELETE FROM blacklist USING l WHERE blacklist.kind = 'cancel11' AND blacklist.mobile = $2
			AND blacklist.account_id = l.account_id`, m.Line, m.Sender)
	}
	if err != nil {
		return fmt.Errorf("cancel-11 list: %w", err)
	}
	return nil
}
