package support

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"time"

	"github.com/hibiken/asynq"
	"github.com/jackc/pgx/v5"

	"github.com/chapar/chapar/jobs"
	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/audit"
	"github.com/chapar/chapar/pkg/persian"
)

// PurposeTicketAnswer marks the answer SMS among the platform's own messages.
const PurposeTicketAnswer = "ticket_answer"

// seqTicketAnswer is the Seq of the answer SMS task (jobs.NewVerification): with the
// interaction id as ChallengeID, "otp:<interaction>:-20" is the answer's own task id.
const seqTicketAnswer = -20

// Answer adds staff's answer to a request: answered (3), or waiting for the
// customer (1) when m.Action is StaffAsk. The owner gets an SMS unless the account
// turned it off.
func (s *Service) Answer(ctx context.Context, by acl.Identity, m Message) (Detail, error) {
	if m.Action != StaffAsk {
		m.Action = StaffAnswer
	}
	by.Staff = true
	d, iid, err := s.converse(ctx, by, m, ActionStaffAnswer)
	if err != nil {
		return d, err
	}
	if err := s.notify(ctx, d, iid); err != nil {
		slog.WarnContext(ctx, "ticket answer SMS not queued", "ticket", d.ID, "err", err)
	}
	return d, nil
}

// Refer moves a request to state 5 (for further review) or 6 (to the relevant unit).
func (s *Service) Refer(ctx context.Context, by acl.Identity, ticketID int64, to State, ip string) (Detail, error) {
	a := map[State]Action{ReferredReview: ReferReview, ReferredUnit: ReferUnit, Closed: Close}[to]
	if a == "" {
		return Detail{}, transitionErr(MsgTransition)
	}
	by.Staff = true
	return s.setState(ctx, by, ticketID, a, ActionStaffState, ip)
}

// Assign gives a request to a staff user (0: nobody).
func (s *Service) Assign(ctx context.Context, by acl.Identity, ticketID, staffID int64) (Detail, error) {
	var acct int64
	e := audit.Entry{UserID: by.UserID, Action: ActionStaffAssign, TargetType: "ticket", Target: strconv.FormatInt(ticketID, 10),
		After: map[string]any{"assigned_to": staffID}}
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if staffID != 0 {
			var ok bool
			if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM users WHERE id = $1 AND is_staff AND status = 'active')`,
				staffID).Scan(&ok); err != nil {
				return fmt.Errorf("find staff user: %w", err)
			}
			if !ok {
				return apperr.Field("staff_id", MsgStaffUser)
			}
		}
		err := tx.QueryRow(ctx, `UPDATE tickets SET assigned_to = nullif($2, 0), updated_at = now() WHERE id = $1 RETURNING account_id`,
			ticketID, staffID).Scan(&acct)
		if err := notFound(err, "assign ticket"); err != nil {
			return err
		}
		return audit.Record(ctx, tx, e)
	})
	if err != nil {
		return Detail{}, err
	}
	return s.announce(ctx, acl.Identity{AccountID: acct}, ticketID)
}

// notify queues the answer SMS to the account's owner (proven mobile) when the
// account's setting allows it.
func (s *Service) notify(ctx context.Context, d Detail, interactionID int64) error {
	if s.queue == nil {
		return nil
	}
	var userID int64
	var mobile string
	err := s.pool.QueryRow(ctx, `SELECT u.id, u.mobile FROM users u LEFT JOIN ticket_settings ts ON ts.account_id = u.account_id
		WHERE u.account_id = $1 AND u.is_owner AND u.mobile_verified AND u.mobile <> '' AND u.status = 'active'
		AND coalesce(ts.sms_on_answer, true) ORDER BY u.id LIMIT 1`, d.AccountID).Scan(&userID, &mobile)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("answer SMS owner: %w", err)
	}
	task, err := jobs.NewVerification(jobs.Verification{UserID: userID, Mobile: mobile, Text: AnswerText(d.Number),
		Purpose: PurposeTicketAnswer, ChallengeID: interactionID, Seq: seqTicketAnswer})
	if err != nil {
		return err
	}
	if _, err := s.queue.EnqueueContext(ctx, task); err != nil && !errors.Is(err, asynq.ErrTaskIDConflict) {
		return fmt.Errorf("enqueue answer SMS: %w", err)
	}
	return nil
}

// AnswerText is the SMS staff's answer sends: the request number in Persian digits.
func AnswerText(number int64) string {
	return "چاپار: درخواست پشتیبانی شماره " + persian.Digits(strconv.FormatInt(number, 10)) +
		" پاسخ داده شد. پاسخ را در بخش پشتیبانی پنل ببینید."
}

// Canned is a staff-managed canned answer.
type Canned struct {
	ID        int64     `json:"id"`
	Title     string    `json:"title"`
	Text      string    `json:"text"`
	UpdatedAt time.Time `json:"updated_at"`
}

// CannedAnswers lists the canned answers by title.
func (s *Service) CannedAnswers(ctx context.Context) ([]Canned, error) {
	rows, err := s.pool.Query(ctx, `SELECT id, title, text, updated_at FROM canned_answers ORDER BY title, id`)
	if err != nil {
		return nil, fmt.Errorf("canned answers: %w", err)
	}
	out, err := pgx.CollectRows(rows, pgx.RowToStructByPos[Canned])
	if err != nil {
		return nil, fmt.Errorf("canned answers: %w", err)
	}
	return out, nil
}

// SaveCanned creates (ID 0) or edits a canned answer.
func (s *Service) SaveCanned(ctx context.Context, by acl.Identity, in Canned) (Canned, error) {
	f := apperr.Fields{}
	in.Title = cleanText(f, "title", in.Title, MaxTitle, MsgTitle, MsgTitleLong)
	in.Text = cleanText(f, "text", in.Text, MaxText, MsgText, MsgTextLong)
	if err := f.Err(); err != nil {
		return in, err
	}
	e := audit.Entry{UserID: by.UserID, Action: ActionStaffCanned, TargetType: "canned_answer", After: map[string]any{"title": in.Title}}
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		q := `INSERT INTO canned_answers (title, text, updated_by) SELECT $2, $3, $4 WHERE $1::bigint = 0 RETURNING id, updated_at`
		if in.ID != 0 {
			q = `UPDATE canned_answers SET title = $2, text = $3, updated_by = $4, updated_at = now() WHERE id = $1 RETURNING id, updated_at`
		}
		err := tx.QueryRow(ctx, q, in.ID, in.Title, in.Text, by.UserID).Scan(&in.ID, &in.UpdatedAt)
		if err := notFound(err, "save canned answer"); err != nil {
			return err
		}
		e.Target = strconv.FormatInt(in.ID, 10)
		return audit.Record(ctx, tx, e)
	})
	return in, err
}

// DeleteCanned removes a canned answer.
func (s *Service) DeleteCanned(ctx context.Context, by acl.Identity, cannedID int64) error {
	return pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `DELETE FROM canned_answers WHERE id = $1`, cannedID)
		if err != nil {
			return fmt.Errorf("delete canned answer: %w", err)
		}
		if tag.RowsAffected() == 0 {
			return apperr.ErrNotFound
		}
		return audit.Record(ctx, tx, audit.Entry{UserID: by.UserID, Action: ActionStaffCanned, TargetType: "canned_answer",
			Target: strconv.FormatInt(cannedID, 10), Details: map[string]any{"deleted": true}})
	})
}
