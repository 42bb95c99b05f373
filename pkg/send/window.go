package send

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/sendrules"
)

// Sending hours (docs/sending-rules.md): a send on an advertising line goes only
// within the operators' window narrowed by the account's own hours. A scheduled
// send outside it is refused with the next allowed time; a send made now outside
// it is refused unless the caller asks to hold it (HoldUntilWindow), when it is
// scheduled for the window's opening. The gateway pauses a send in flight when
// the window closes (pause_reason 'window') and ResumeWindowed resumes it.

// CodeOutsideHours is the message_code of a send refused outside its sending hours.
const CodeOutsideHours = "outside-send-hours"

// Persian texts of the sending hours.
const (
	msgOutsideHours = "ارسال از خط تبلیغاتی فقط از ساعت %s به وقت تهران مجاز است؛ نزدیک‌ترین زمان مجاز: %s"
	msgHoursNote    = "ارسال از خط تبلیغاتی فقط از ساعت %s به وقت تهران انجام می‌شود"
	msgHoursHeld    = "ارسال از خط تبلیغاتی فقط از ساعت %s به وقت تهران انجام می‌شود؛ اکنون خارج از آن است و ارسال تا %s نگه داشته می‌شود"
)

// OutsideHours is the data of a refusal outside the sending hours, and the
// sending hours part of a quote.
type OutsideHours struct {
	// Open: the send may go at the time asked about (now, or its send_at).
	Open bool `json:"open"`
	// NextAllowedAt is the earliest time at or after the time asked about
	// within the window.
	NextAllowedAt time.Time       `json:"next_allowed_at"`
	Window        sendrules.Hours `json:"window"`
	// Note is the Persian text the panel shows.
	Note string `json:"note"`
}

// SetClock sets the clock that decides the sending hours and schedules (tests move it).
func (s *Service) SetClock(now func() time.Time) { s.now = now }

// Rules is the sending hours service the send service reads (the staff routes
// write through it, so a change is seen at once).
func (s *Service) Rules() *sendrules.Service { return s.rules }

// decide applies the sending hours to a priced request at t. own is the hours
// stored on the send: the request's send_hours, else the account's.
func (s *Service) decide(ctx context.Context, accountID int64, r Request, kind string, q Quote, t time.Time) (sendrules.Decision, *sendrules.Window, error) {
	var own *sendrules.Window
	var err error
	if r.SendHours != nil {
		w, err := s.rules.CheckOwn(ctx, *r.SendHours)
		if err != nil {
			return sendrules.Decision{}, nil, err
		}
		own = &w
	} else if own, err = s.rules.AccountHours(ctx, accountID); err != nil {
		return sendrules.Decision{}, nil, err
	}
	tbl, err := s.rules.Table(ctx)
	if err != nil {
		return sendrules.Decision{}, nil, err
	}
	var ops []string
	for _, o := range q.PerOperator {
		if o.Recipients > 0 {
			ops = append(ops, o.Operator)
		}
	}
	return tbl.Decide(t, ops, kind, own), own, nil
}

// hoursInfo describes a decision for a quote or a refusal (nil when the line
// always sends). Its note names the line's hours; outside them it says what
// becomes of the send: one made now is held until they open, a scheduled one
// (scheduled) is refused with the next allowed time.
func hoursInfo(d sendrules.Decision, scheduled bool) *OutsideHours {
	if !d.Restricted {
		return nil
	}
	o := &OutsideHours{Open: d.Open, NextAllowedAt: d.Next, Window: sendrules.HoursOf(d.Window)}
	switch {
	case d.Window.Empty():
		o.Note = sendrules.MsgOwnHoursOutside
	case d.Open:
		o.Note = fmt.Sprintf(msgHoursNote, d.Window.Persian())
	case scheduled:
		o.Note = fmt.Sprintf(msgOutsideHours, d.Window.Persian(), sendrules.PersianTime(d.Next))
	default:
		o.Note = fmt.Sprintf(msgHoursHeld, d.Window.Persian(), sendrules.PersianTime(d.Next))
	}
	return o
}

// applyHours checks an accepted request against the sending hours and returns
// the request as it is to be stored: a held send gets the window's opening as
// its send_at.
func (s *Service) applyHours(ctx context.Context, accountID int64, r Request, p prepared) (Request, *sendrules.Window, error) {
	at := s.now()
	if r.SendAt != nil {
		at = *r.SendAt
	}
	d, own, err := s.decide(ctx, accountID, r, p.line.Kind, p.quote, at)
	if err != nil || !d.Restricted || d.Open {
		return r, own, err
	}
	if d.Window.Empty() {
		return r, own, apperr.Field("send_hours", sendrules.MsgOwnHoursOutside)
	}
	if r.SendAt == nil && r.HoldUntilWindow {
		next := d.Next
		r.SendAt = &next
		return r, own, nil
	}
	field := ""
	if r.SendAt != nil {
		field = "send_at"
	}
	return r, own, outsideHours(d, field)
}

// outsideHours is the refusal of a send outside its sending hours: a field
// error on field (a scheduled send's send_at; none for a send made now), with the
// next allowed time as data.
func outsideHours(d sendrules.Decision, field string) error {
	msg := fmt.Sprintf(msgOutsideHours, d.Window.Persian(), sendrules.PersianTime(d.Next))
	e := apperr.New(apperr.Invalid, msg).WithCode(CodeOutsideHours)
	if field != "" {
		e.Fields = map[string][]string{field: {msg}}
	}
	info := hoursInfo(d, true)
	info.Note = msg
	e.Data = info
	return e
}

// QuoteRuns prices a request with its sending hours at its time; for a recurring
// campaign it refuses the request when one of its runs (the next ones, in order)
// would fire outside them, field naming the schedule's field in the refusal.
func (s *Service) QuoteRuns(ctx context.Context, id acl.Identity, r Request, runs []time.Time, field string) (Quote, error) {
	p, err := s.check(ctx, id.AccountID, r)
	if err != nil {
		return p.quote, err
	}
	q, err := s.quoteOf(ctx, id.AccountID, p)
	if err != nil {
		return q, err
	}
	for _, t := range runs {
		d, _, err := s.decide(ctx, id.AccountID, r, p.line.Kind, q, t)
		if err != nil {
			return q, err
		}
		if !d.Restricted {
			break
		}
		if d.Window.Empty() {
			return q, apperr.Field("send_hours", sendrules.MsgOwnHoursOutside)
		}
		if !d.Open {
			return q, outsideHours(d, field)
		}
	}
	if err := s.quoteHours(ctx, id.AccountID, r, p.line.Kind, &q); err != nil {
		return q, err
	}
	return q, s.quoteGradual(ctx, id.AccountID, r, p, &q, runs != nil)
}

// quoteHours adds the sending hours at the request's time (its send_at, else
// now) to a quote.
func (s *Service) quoteHours(ctx context.Context, accountID int64, r Request, kind string, q *Quote) error {
	at := s.now()
	if r.SendAt != nil {
		at = *r.SendAt
	}
	d, _, err := s.decide(ctx, accountID, r, kind, *q, at)
	if err != nil {
		return err
	}
	q.SendHours = hoursInfo(d, r.SendAt != nil)
	return nil
}

// checkReschedule refuses moving a scheduled send to a time outside its
// sending hours (its line's kind and the hours stored on it).
func (s *Service) checkReschedule(ctx context.Context, tx pgx.Tx, sendID int64, at time.Time) error {
	var kind string
	var from, to *int
	if err := tx.QueryRow(ctx, `SELECT coalesce(l.kind, ''), s.hours_start, s.hours_end FROM sends s
		LEFT JOIN lines l ON l.id = s.line_id WHERE s.id = $1`, sendID).Scan(&kind, &from, &to); err != nil {
		return fmt.Errorf("send hours of %d: %w", sendID, err)
	}
	tbl, err := s.rules.Table(ctx)
	if err != nil {
		return err
	}
	var own *sendrules.Window
	if from != nil && to != nil {
		own = &sendrules.Window{From: *from, To: *to}
	}
	if d := tbl.Decide(at, nil, kind, own); d.Restricted && !d.Open && !d.Window.Empty() {
		return outsideHours(d, "send_at")
	}
	return nil
}

// ownFrom and ownTo are the columns of the hours stored on a send (NULL: none).
func ownFrom(w *sendrules.Window) *int {
	if w == nil {
		return nil
	}
	return &w.From
}

func ownTo(w *sendrules.Window) *int {
	if w == nil {
		return nil
	}
	return &w.To
}

// ResumeWindowed resumes the sends the gateway paused outside their sending
// hours whose window has opened (resume_at reached by the service's clock), as
// Resume does, recorded as the system's resume. The worker runs it every second.
func (s *Service) ResumeWindowed(ctx context.Context) (int, error) {
	out, err := s.windowOpened(ctx)
	if err != nil {
		return 0, err
	}
	for _, d := range out {
		if err := s.requeue(ctx, d.id, d.expanded); err != nil {
			slog.WarnContext(ctx, "window resume: not re-enqueued; the sweeper will", "send", d.id, "err", err)
		}
	}
	return len(out), nil
}

// windowDue is a send resumed as its sending hours opened.
type windowDue struct {
	id       int64
	expanded bool
}

// windowOpened moves the sends whose window has opened back to queued or
// sending and records the system's resume, in one transaction.
func (s *Service) windowOpened(ctx context.Context) ([]windowDue, error) {
	type due = windowDue
	var out []due
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		rows, err := tx.Query(ctx, `UPDATE sends SET status = CASE WHEN expanded_at IS NULL THEN 'queued' ELSE 'sending' END,
			pause_reason = NULL, resume_at = NULL, pace_from = NULL, updated_at = now()
			WHERE id IN (SELECT id FROM sends WHERE status = 'paused' AND pause_reason = 'window' AND resume_at <= $1
				ORDER BY resume_at LIMIT 100 FOR NO KEY UPDATE SKIP LOCKED)
			RETURNING id, expanded_at IS NOT NULL`, s.now())
		if err != nil {
			return fmt.Errorf("resume windowed sends: %w", err)
		}
		out, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (due, error) {
			var d due
			err := r.Scan(&d.id, &d.expanded)
			return d, err
		})
		if err != nil {
			return fmt.Errorf("resume windowed sends: %w", err)
		}
		for _, d := range out {
			if _, err := tx.Exec(ctx, `INSERT INTO send_controls (send_id, action, details) VALUES ($1, $2, $3)`,
				d.id, ActionResume, map[string]any{"reason": "window"}); err != nil {
				return fmt.Errorf("record resume of send %d: %w", d.id, err)
			}
		}
		return nil
	})
	return out, err
}
