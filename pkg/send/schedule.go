package send

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/wallet"
)

// Scheduled sends wait in the database (status scheduled) rather than as Redis
// timers: FireDue, run by the worker every second, queues those whose time has come,
// so a Redis restart loses none and moving a send's time is one UPDATE.

// FireDue queues every scheduled send whose time has come and enqueues its
// expansion. Sends of a suspended account, or made by a colleague since deactivated,
// wait (they fire once the account or colleague is active again). A send whose enqueue fails stays queued; the sweeper enqueues it.
func (s *Service) FireDue(ctx context.Context) (int, error) {
	rows, err := s.pool.Query(ctx, `UPDATE sends SET status = 'queued', updated_at = now()
		WHERE id IN (SELECT id FROM sends s WHERE status = 'scheduled' AND send_at <= now() AND `+notSuspended+`
			AND `+creatorActive+` ORDER BY send_at LIMIT 500 FOR NO KEY UPDATE SKIP LOCKED)
		RETURNING id, type`)
	if err != nil {
		return 0, fmt.Errorf("fire scheduled sends: %w", err)
	}
	type due struct {
		id  int64
		typ string
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (due, error) {
		var d due
		err := r.Scan(&d.id, &d.typ)
		return d, err
	})
	if err != nil {
		return 0, fmt.Errorf("fire scheduled sends: %w", err)
	}
	for _, d := range out {
		if err := s.enqueueExpand(ctx, d.id, d.typ, time.Time{}); err != nil {
			slog.WarnContext(ctx, "scheduled send not enqueued; the sweeper will retry", "send", d.id, "err", err)
		}
	}
	return len(out), nil
}

// ScheduledSend is one line of the scheduled sends list.
type ScheduledSend struct {
	ID         int64     `json:"id"`
	Type       string    `json:"type"`
	Sender     string    `json:"sender"`
	Text       string    `json:"text"`
	Recipients int       `json:"recipients"`
	Price      int64     `json:"price"`
	SendAt     time.Time `json:"send_at"`
	CampaignID *int64    `json:"campaign_id"`
	CreatedAt  time.Time `json:"created_at"`
}

// Scheduled lists the account's sends waiting for their time, soonest first.
func (s *Service) Scheduled(ctx context.Context, accountID int64, page, limit int) ([]ScheduledSend, int64, error) {
	var total int64
	if err := s.pool.QueryRow(ctx, `SELECT count(*) FROM sends WHERE account_id = $1 AND status = 'scheduled'`,
		accountID).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("count scheduled: %w", err)
	}
	rows, err := s.pool.Query(ctx, `SELECT id, type, sender, text, requested - duplicates - invalid, quote, send_at,
		campaign_id, created_at FROM sends WHERE account_id = $1 AND status = 'scheduled'
		ORDER BY send_at, id LIMIT $2 OFFSET $3`, accountID, limit, (page-1)*limit)
	if err != nil {
		return nil, 0, fmt.Errorf("list scheduled: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (ScheduledSend, error) {
		var x ScheduledSend
		err := r.Scan(&x.ID, &x.Type, &x.Sender, &x.Text, &x.Recipients, &x.Price, &x.SendAt, &x.CampaignID, &x.CreatedAt)
		return x, err
	})
	if err != nil {
		return nil, 0, fmt.Errorf("list scheduled: %w", err)
	}
	return out, total, nil
}

// Reschedule moves a scheduled send to another time (at least MinLead ahead)
// and, when text is given, replaces its text: the send is priced again and the
// wallet hold follows the new price to the rial (refused when the credit is short).
func (s *Service) Reschedule(ctx context.Context, id acl.Identity, sendID int64, at *time.Time, text *string) error {
	if (at == nil || at.IsZero()) && text == nil {
		return apperr.Field("send_at", MsgSendAtMissing)
	}
	if at != nil && !at.IsZero() && at.Before(s.now().Add(MinLead-time.Minute)) {
		return apperr.Field("send_at", MsgSendAtPast)
	}
	var balance int64
	var moved bool
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		var cur Request
		var old time.Time
		var oldText string
		var quote int64
		var src Source
		var numbers []string
		var cancel11, sandbox bool
		err := tx.QueryRow(ctx, `SELECT send_at, type, sender, text, cancel11, coalesce(numbers, '{}'), source, quote, sandbox
			FROM sends WHERE id = $1 AND account_id = $2 AND status = 'scheduled' FOR NO KEY UPDATE`, sendID, id.AccountID).
			Scan(&old, &cur.Type, &cur.Sender, &oldText, &cancel11, &numbers, &src, &quote, &sandbox)
		if errors.Is(err, pgx.ErrNoRows) {
			var exists bool
			if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM sends WHERE id = $1 AND account_id = $2)`,
				sendID, id.AccountID).Scan(&exists); err != nil {
				return fmt.Errorf("find send: %w", err)
			}
			if !exists {
				return apperr.ErrNotFound
			}
			return apperr.New(apperr.Conflict, MsgNotScheduled).WithCode("not-scheduled")
		}
		if err != nil {
			return fmt.Errorf("lock send: %w", err)
		}
		next := old
		if at != nil && !at.IsZero() {
			next = *at
			if err := s.checkReschedule(ctx, tx, sendID, next); err != nil {
				return err
			}
		}
		details := map[string]any{"from": old, "to": next}
		if text != nil && *text != oldText && cur.Type != TypePeerToPeer {
			cur.Text, cur.Numbers, cur.FileID, cur.PhonebookIDs, cur.Cancel11 = *text, numbers, src.FileID, src.PhonebookIDs, &cancel11
			p, err := s.prepare(ctx, id.AccountID, cur)
			if err != nil {
				return err
			}
			if sandbox {
				p.quote.Price = 0 // the send keeps the identity it was made with: a sandbox send is never charged
			}
			if _, err := tx.Exec(ctx, `UPDATE sends SET text = $2, parts = $3, encoding = $4, quote = $5 WHERE id = $1`,
				sendID, cur.Text, p.quote.Parts, p.quote.Encoding, p.quote.Price); err != nil {
				return fmt.Errorf("update text: %w", err)
			}
			var n int64
			if err := tx.QueryRow(ctx, `SELECT count(*) FROM send_controls WHERE send_id = $1`, sendID).Scan(&n); err != nil {
				return fmt.Errorf("count controls: %w", err)
			}
			kind := wallet.Hold
			if p.quote.Price < quote {
				kind = wallet.Release
			}
			balance, moved, err = wallet.Apply(ctx, tx, wallet.Entry{AccountID: id.AccountID, Kind: kind, Amount: quote - p.quote.Price,
				SendID: sendID, Ref: fmt.Sprintf("send:%d:rehold:%d", sendID, n), UserID: id.UserID,
				Description: "اصلاح رزرو هزینه ارسال " + strconv.FormatInt(sendID, 10)})
			if err != nil {
				return err
			}
			details["price_from"], details["price_to"] = quote, p.quote.Price
		}
		if _, err := tx.Exec(ctx, `UPDATE sends SET send_at = $2, updated_at = now() WHERE id = $1`, sendID, next); err != nil {
			return fmt.Errorf("reschedule: %w", err)
		}
		return recordControl(ctx, tx, sendID, id, ActionReschedule, details, "")
	})
	if err == nil && moved {
		s.moneyChanged(ctx, id.AccountID, balance)
	}
	return err
}
