package send

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
	"github.com/chapar/chapar/pkg/operator"
	"github.com/chapar/chapar/pkg/wallet"
)

// Stopped is the answer to a stop or cancel.
type Stopped struct {
	ID       int64  `json:"id"`
	Status   string `json:"status"`
	Refunded int64  `json:"refunded"`
}

// Cancel stops a running send or cancels a scheduled one. Every recipient not yet
// handed to a gateway is marked rejected ("stopped") and refunded to the rial in the
// same transaction; a gateway re-checks the status between chunks.
func (s *Service) Cancel(ctx context.Context, id acl.Identity, sendID int64, ip string) (Stopped, error) {
	out := Stopped{ID: sendID, Status: StatusStopped}
	var balance int64
	moved := false
	err := retryAborted(ctx, func() error {
		return pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
			var status string
			var quote, refunded int64
			var expanded bool
			err := tx.QueryRow(ctx, `SELECT status, quote, refunded, expanded_at IS NOT NULL FROM sends
			WHERE id = $1 AND account_id = $2 FOR NO KEY UPDATE`, sendID, id.AccountID).Scan(&status, &quote, &refunded, &expanded)
			if errors.Is(err, pgx.ErrNoRows) {
				return apperr.ErrNotFound
			}
			if err != nil {
				return fmt.Errorf("lock send: %w", err)
			}
			switch status {
			case StatusScheduled, StatusQueued, StatusSending, StatusPaused:
			case StatusHeld:
				if err := withdrawHeld(ctx, tx, sendID); err != nil {
					return err
				}
			default:
				return apperr.New(apperr.Conflict, MsgNotStoppable).WithCode("not-stoppable")
			}
			var amount int64
			var n int
			if !expanded {
				// Nothing was expanded yet: the whole hold goes back.
				amount = quote
			} else {
				if err := tx.QueryRow(ctx, `WITH stopped AS (
				UPDATE recipients SET status = 6, error = 'stopped', updated_at = now(), done_at = now()
				WHERE send_id = $1 AND status = 5 AND `+unclaimed+` RETURNING cost)
				SELECT count(*), coalesce(sum(cost), 0) FROM stopped`, sendID).Scan(&n, &amount); err != nil {
					return fmt.Errorf("stop recipients: %w", err)
				}
			}
			if _, err := tx.Exec(ctx, `UPDATE sends SET status = 'stopped', stopped_by = $2, stopped_at = now(),
			rejected = rejected + $3, stopped = stopped + $3, refunded = refunded + $4, updated_at = now(),
			finished_at = CASE WHEN expanded_at IS NULL THEN now() ELSE finished_at END WHERE id = $1`,
				sendID, id.UserID, n, amount); err != nil {
				return fmt.Errorf("stop send: %w", err)
			}
			bal, applied, err := wallet.Apply(ctx, tx, wallet.Entry{AccountID: id.AccountID, Kind: wallet.Refund, Amount: amount,
				SendID: sendID, Ref: "send:" + strconv.FormatInt(sendID, 10) + ":stop", UserID: id.UserID,
				Description: "بازگشت هزینه ارسال متوقف‌شده " + strconv.FormatInt(sendID, 10)})
			if err != nil {
				return err
			}
			balance, moved = bal, applied
			out.Refunded = amount
			return recordControl(ctx, tx, sendID, id, ActionStop, map[string]any{"from": status, "refunded": amount, "recipients": n}, ip)
		})
	})
	if err != nil {
		return Stopped{}, err
	}
	if moved {
		s.moneyChanged(ctx, id.AccountID, balance)
	}
	return out, nil
}

// Control actions recorded on a send.
const (
	ActionPause      = "pause"
	ActionResume     = "resume"
	ActionStop       = "stop"
	ActionReschedule = "reschedule"
)

// Messages of the control actions.
const (
	MsgNotPausable   = "فقط ارسال در حال انجام را می‌توان متوقف موقت کرد"
	MsgNotResumable  = "این ارسال در حالت توقف موقت نیست"
	MsgNotScheduled  = "این ارسال زمان‌بندی‌شده نیست یا زمان آن فرا رسیده است"
	MsgSendAtMissing = "زمان ارسال را وارد کنید"
)

// Control is one pause, resume, stop or reschedule of a send.
type Control struct {
	Action string    `json:"action"`
	By     string    `json:"by"`
	At     time.Time `json:"at"`
}

// recordControl records a control on the send and in the audit log ("send.<action>",
// the status before and after; ip, when given, overrides the request's).
func recordControl(ctx context.Context, tx pgx.Tx, sendID int64, id acl.Identity, action string, details map[string]any, ip string) error {
	if details == nil {
		details = map[string]any{}
	}
	if _, err := tx.Exec(ctx, `INSERT INTO send_controls (send_id, action, user_id, api_key_id, details)
		VALUES ($1, $2, nullif($3, 0), nullif($4, 0), $5)`, sendID, action, id.UserID, id.APIKeyID, details); err != nil {
		return fmt.Errorf("record %s: %w", action, err)
	}
	return audit.Record(ctx, tx, audit.Entry{AccountID: id.AccountID, UserID: id.UserID, APIKeyID: id.APIKeyID,
		Action: "send." + action, TargetType: "send", Target: strconv.FormatInt(sendID, 10), Details: details, IP: ip})
}

// Controls lists a send's controls, oldest first, with the name of who did each.
func Controls(ctx context.Context, q operator.Querier, sendID int64) ([]Control, error) {
	rows, err := q.Query(ctx, `SELECT c.action, coalesce(nullif(u.name, ''), u.username, CASE WHEN c.api_key_id IS NOT NULL
		THEN 'API' ELSE 'سامانه' END), c.created_at FROM send_controls c LEFT JOIN users u ON u.id = c.user_id
		WHERE c.send_id = $1 ORDER BY c.id`, sendID)
	if err != nil {
		return nil, fmt.Errorf("send controls: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (Control, error) {
		var c Control
		err := r.Scan(&c.Action, &c.By, &c.At)
		return c, err
	})
	if err != nil {
		return nil, fmt.Errorf("send controls: %w", err)
	}
	return out, nil
}

// Pause holds a queued or sending send: gateways stop claiming its recipients after
// the chunk in hand; nothing is refunded and progress stays exact.
func (s *Service) Pause(ctx context.Context, id acl.Identity, sendID int64) (Stopped, error) {
	return s.transition(ctx, id, sendID, ActionPause, func(tx pgx.Tx, status string, expanded bool) (string, error) {
		if status != StatusQueued && status != StatusSending {
			return "", apperr.New(apperr.Conflict, MsgNotPausable).WithCode("not-pausable")
		}
		return StatusPaused, nil
	})
}

// Resume continues a paused send: its waiting batches (or its expansion) are
// enqueued again under fresh task ids.
func (s *Service) Resume(ctx context.Context, id acl.Identity, sendID int64) (Stopped, error) {
	var next string
	out, err := s.transition(ctx, id, sendID, ActionResume, func(tx pgx.Tx, status string, expanded bool) (string, error) {
		if status != StatusPaused {
			return "", apperr.New(apperr.Conflict, MsgNotResumable).WithCode("not-resumable")
		}
		next = StatusQueued
		if expanded {
			next = StatusSending
		}
		return next, nil
	})
	if err != nil {
		return out, err
	}
	if err := s.requeue(ctx, sendID, next == StatusSending); err != nil {
		// The sweeper re-enqueues stalled batches and lost expansions.
		slog.WarnContext(ctx, "resume: not re-enqueued; the sweeper will", "send", sendID, "err", err)
	}
	return out, nil
}

// requeue enqueues a send's work again: its batches with queued recipients, or its
// expansion.
func (s *Service) requeue(ctx context.Context, sendID int64, expanded bool) error {
	if !expanded {
		ins := fmt.Sprintf("resume-%d", s.now().UnixNano())
		task, err := jobs.NewSendExpand(sendID, jobs.QueueDefault, time.Time{})
		if err != nil {
			return err
		}
		_, err = s.queue.EnqueueContext(ctx, task, asynq.TaskID(fmt.Sprintf("expand:%d:%s", sendID, ins)))
		return err
	}
	var batches []batchKey
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		var err error
		batches, err = existingBatches(ctx, tx, sendID)
		return err
	})
	if err != nil {
		return err
	}
	return s.enqueueBatches(ctx, sendID, batches, false, fmt.Sprintf("resume-%d", s.now().UnixNano()))
}

// transition moves a send from one status to another under its row lock and
// records who did it.
func (s *Service) transition(ctx context.Context, id acl.Identity, sendID int64, action string,
	next func(tx pgx.Tx, status string, expanded bool) (string, error)) (Stopped, error) {
	out := Stopped{ID: sendID}
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		var status string
		var expanded bool
		err := tx.QueryRow(ctx, `SELECT status, expanded_at IS NOT NULL FROM sends WHERE id = $1 AND account_id = $2 FOR NO KEY UPDATE`,
			sendID, id.AccountID).Scan(&status, &expanded)
		if errors.Is(err, pgx.ErrNoRows) {
			return apperr.ErrNotFound
		}
		if err != nil {
			return fmt.Errorf("lock send: %w", err)
		}
		to, err := next(tx, status, expanded)
		if err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `UPDATE sends SET status = $2, updated_at = now(), pause_reason = NULL, resume_at = NULL,
			pace_from = NULL, pace_wait_until = NULL,
			paused_at = CASE WHEN $2 = 'paused' THEN now() ELSE paused_at END WHERE id = $1`, sendID, to); err != nil {
			return fmt.Errorf("%s send: %w", action, err)
		}
		out.Status = to
		return recordControl(ctx, tx, sendID, id, action, map[string]any{"from": status, "to": to}, "")
	})
	return out, err
}
