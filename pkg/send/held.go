package send

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/links"
	"github.com/chapar/chapar/pkg/moderation"
	"github.com/chapar/chapar/pkg/review"
	"github.com/chapar/chapar/pkg/wallet"
)

// Moderation statuses of a send (spec §4 «در حال بررسی» and «مسدود»): a held send
// keeps its price on hold and is not expanded until staff approve it; a blocked one
// was refused and refunded in full.
const (
	StatusHeld    = "held"
	StatusBlocked = "blocked"
)

// ReviewKind is the back office queue of held sends.
const ReviewKind = "send"

// MsgNotHeld refuses a decision on a send that is no longer held.
const MsgNotHeld = "این ارسال در انتظار بررسی نیست"

// initialStatus is an accepted send's first status: held (with the reasons) when
// the moderation rules match, else scheduled or queued.
func (s *Service) initialStatus(ctx context.Context, accountID int64, r Request, p prepared) (string, []string, error) {
	held, err := s.holdReasons(ctx, accountID, p)
	switch {
	case err != nil:
		return "", nil, err
	case len(held) > 0:
		return StatusHeld, held, nil
	case r.SendAt != nil:
		return StatusScheduled, nil, nil
	}
	return StatusQueued, nil, nil
}

// holdReasons runs the moderation rules on an accepted request, its text read with
// the targets of its tracked links (a link behind {link:N} is held exactly as if
// it were written out); verification codes are the platform's own and never held;
// a pattern send's text was reviewed, so only its values are judged (by
// pkg/pattern, which passes its reasons).
func (s *Service) holdReasons(ctx context.Context, accountID int64, p prepared) ([]string, error) {
	if p.typ == TypeVerification || IsReply(p.typ) {
		return nil, nil
	}
	if p.pattern != nil {
		return p.pattern.Held, nil
	}
	// A tracked link's target is judged as if it were written in the text.
	text, err := links.WithTargets(ctx, s.pool, accountID, p.text)
	if err != nil {
		return nil, err
	}
	if p.rules == nil {
		return moderation.Hold(ctx, s.pool, accountID, text, p.quote.Recipients)
	}
	reasons, err := p.rules.Hold(ctx, s.pool, accountID, text, p.quote.Recipients)
	if err == nil && p.rowWords.rows > 0 {
		reasons = append(reasons, moderation.RowReason(p.rowWords.word, p.rowWords.rows))
	}
	if err == nil && p.rowWords.links > 0 && !slices.Contains(reasons, moderation.ReasonLink) {
		reasons = append(reasons, moderation.RowLinkReason(p.rowWords.links))
	}
	return reasons, err
}

// loadRowRules loads the moderation rules before an accepted send's walk when its
// rows carry their own texts (peer-to-peer, keyword, personalised phonebook), so the walk checks every row
// text for the sensitive words and links in the same pass that prices it.
func (s *Service) loadRowRules(ctx context.Context, p *prepared) error {
	if p.typ != TypePeerToPeer && p.typ != TypeKeyword && len(p.src.Tags) == 0 {
		return nil
	}
	r, err := moderation.Load(ctx, s.pool)
	if err != nil {
		return err
	}
	p.rules, p.words = &r, r.Matcher()
	return nil
}

// rowWords is what a walk found in the per-row texts: how many rows carry a
// sensitive word (and the first word), how many carry a link, and the text of the
// first row that carries either.
type rowWords struct {
	rows, links int
	word, text  string
}

func (w *rowWords) check(m *moderation.Matcher, text string) {
	word, ok := m.Match(text)
	link := m.Link(text)
	if (ok || link) && w.rows == 0 && w.links == 0 {
		w.text = text
	}
	if ok {
		if w.rows == 0 {
			w.word = word
		}
		w.rows++
	}
	if link {
		w.links++
	}
}

// submitHeld queues a held send for review inside its create transaction.
func submitHeld(ctx context.Context, tx pgx.Tx, accountID, sendID int64, reasons []string, text string) error {
	return review.Submit(ctx, tx, ReviewKind, accountID, sendID, reasons, text)
}

// withdrawHeld takes a held send the customer cancelled out of the review queue.
func withdrawHeld(ctx context.Context, tx pgx.Tx, sendID int64) error {
	return review.Withdraw(ctx, tx, ReviewKind, sendID)
}

// ReviewQueue is the send queue of the back office (a review.Handler). changed,
// when set, is told each decided send once its new status is committed (the live
// progress pump's dirty set), so the customer's report follows without a reload.
func (s *Service) ReviewQueue(changed func(ctx context.Context, sendID int64)) review.Handler {
	return heldQueue{s: s, changed: changed}
}

type heldQueue struct {
	s       *Service
	changed func(ctx context.Context, sendID int64)
}

// then runs f (if any), then tells changed about the send.
func (q heldQueue) then(sendID int64, f func(context.Context)) func(context.Context) {
	return func(ctx context.Context) {
		if f != nil {
			f(ctx)
		}
		if q.changed != nil {
			q.changed(ctx, sendID)
		}
	}
}

// Kind returns ReviewKind, the held sends' queue.
func (heldQueue) Kind() string { return ReviewKind }

// Title returns the queue's Persian name in the back office menu.
func (heldQueue) Title() string { return "ارسال‌های در انتظار بررسی" }

// Decide releases a held send (it goes out, or waits for its time) or blocks it
// and refunds its whole hold to the rial.
func (q heldQueue) Decide(ctx context.Context, tx pgx.Tx, it review.Item, d review.Decision) (func(context.Context), error) {
	var status, typ string
	var quote int64
	var sendAt *time.Time
	err := tx.QueryRow(ctx, `SELECT status, type, quote, send_at FROM sends WHERE id = $1 AND account_id = $2 FOR UPDATE`,
		it.SubjectID, it.AccountID).Scan(&status, &typ, &quote, &sendAt)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, apperr.ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("lock held send: %w", err)
	}
	if status != StatusHeld {
		return nil, apperr.New(apperr.Conflict, MsgNotHeld).WithCode("not-held")
	}
	if d.Approve {
		if err := accountOpen(ctx, tx, it.AccountID); errors.Is(err, ErrSuspended) {
			return nil, apperr.New(apperr.Conflict, MsgHeldSuspended).WithCode(CodeSuspended)
		} else if err != nil {
			return nil, err
		}
	}
	if !d.Approve {
		after, err := q.block(ctx, tx, it, quote, d.Reason)
		return q.then(it.SubjectID, after), err
	}
	next := StatusQueued
	if sendAt != nil && sendAt.After(q.s.now()) {
		next = StatusScheduled // FireDue queues it at its time
	}
	if _, err := tx.Exec(ctx, `UPDATE sends SET status = $2, updated_at = now() WHERE id = $1`, it.SubjectID, next); err != nil {
		return nil, fmt.Errorf("release held send: %w", err)
	}
	if next == StatusScheduled {
		return q.then(it.SubjectID, nil), nil
	}
	return q.then(it.SubjectID, func(ctx context.Context) {
		// The send is queued and paid for; the sweeper enqueues it again on failure.
		_ = q.s.enqueueExpand(ctx, it.SubjectID, typ, time.Time{})
	}), nil
}

// block refuses a held send: nothing was expanded, so the whole hold goes back.
func (q heldQueue) block(ctx context.Context, tx pgx.Tx, it review.Item, quote int64, reason string) (func(context.Context), error) {
	if _, err := tx.Exec(ctx, `UPDATE sends SET status = 'blocked', review_note = $2, refunded = refunded + $3,
		finished_at = now(), updated_at = now() WHERE id = $1`, it.SubjectID, reason, quote); err != nil {
		return nil, fmt.Errorf("block send: %w", err)
	}
	id := strconv.FormatInt(it.SubjectID, 10)
	bal, moved, err := wallet.Apply(ctx, tx, wallet.Entry{AccountID: it.AccountID, Kind: wallet.Refund, Amount: quote,
		SendID: it.SubjectID, Ref: "send:" + id + ":block", Description: "بازگشت هزینه ارسال مسدودشده " + id})
	if err != nil || !moved {
		return nil, err
	}
	return func(ctx context.Context) { q.s.moneyChanged(ctx, it.AccountID, bal) }, nil
}

// heldSummary is the text shown in the queue: the first row text carrying a link or a
// sensitive word, else the message, else the type for rows that carry their own.
func heldSummary(p prepared) string {
	if p.pattern != nil && p.pattern.Summary != "" {
		return p.pattern.Summary
	}
	if p.rowWords.text != "" {
		return p.rowWords.text
	}
	if t := strings.TrimSpace(p.text); t != "" {
		return t
	}
	return p.typ
}
