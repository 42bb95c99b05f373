package campaign

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/send"
)

// RetryDelay is how long a run that could not be tried (a database or internal
// error) waits before it is tried again; a rate-limited run waits for its limit.
const RetryDelay = time.Minute

// MsgDisabled is the reason given when the scheduler turns a campaign off because
// its schedule has no next run (or cannot be read).
const MsgDisabled = "زمان‌بندی این کمپین اجرای دیگری ندارد؛ کمپین غیرفعال شد"

// maxPerTick bounds the runs one RunDue call handles.
const maxPerTick = 100

// dueRun is a claimed campaign run.
type dueRun struct {
	id, accountID int64
	userID        *int64
	apiKeyID      *int64
	sandbox       bool
	title         string
	at            time.Time
	req           send.Request
	sc            Schedule
	broken        error // the stored request or schedule could not be read
}

// outcome is what trying a run did: a send, a refusal (failure), a postponement
// (retryAt: nothing was tried, the same run is tried again then) or the end of the
// campaign (disable).
type outcome struct {
	sendID  int64
	failure string
	// empty: an occasion run without contacts that day (RunEmpty).
	empty   bool
	next    time.Time
	retryAt time.Time
	disable bool
	// stop turns the campaign off because its maker can no longer send (failure
	// says why); the owner finds it in the audit log.
	stop  bool
	cause error
}

// RunDue starts every campaign run that is due, one at a time under its row lock
// (so several workers never start the same run), and returns how many it handled.
// A run missed while no worker was up fires once, then the schedule moves on from
// now. A run that cannot be tried now waits (retry_at) and the loop moves on, so one
// failing campaign never holds up another account's.
func (s *Service) RunDue(ctx context.Context) (int, error) {
	n := 0
	for ; n < maxPerTick; n++ {
		ran, err := s.runOne(ctx)
		if err != nil || !ran {
			return n, err
		}
	}
	return n, nil
}

func (s *Service) runOne(ctx context.Context) (bool, error) {
	now := s.Now()
	var (
		d       dueRun
		out     outcome
		claimed bool
	)
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		var err error
		if claimed, err = claim(ctx, tx, now, &d); err != nil || !claimed {
			return err
		}
		ident, refused, err := runAs(ctx, tx, d)
		switch {
		case err != nil:
			return err
		case refused != "":
			out = outcome{stop: true, failure: refused}
		default:
			out = s.try(ctx, d, ident, now)
		}
		return record(ctx, tx, d, out)
	})
	if err != nil && !claimed {
		return false, err
	}
	if err != nil {
		// The run's own transaction failed: postpone it so the loop moves on.
		out = outcome{retryAt: now.Add(RetryDelay), cause: err}
		if _, err := s.pool.Exec(ctx, `UPDATE campaigns SET retry_at = $2 WHERE id = $1`, d.id, out.retryAt); err != nil {
			return false, fmt.Errorf("postpone campaign %d: %w", d.id, err)
		}
	}
	if claimed {
		s.announce(ctx, d, out)
	}
	return claimed, nil
}

// claim locks the most overdue run that is not waiting for a retry. A suspended
// account's campaigns wait: once it is reactivated, a missed run fires once.
func claim(ctx context.Context, tx pgx.Tx, now time.Time, d *dueRun) (bool, error) {
	var req, sc []byte
	err := tx.QueryRow(ctx, `SELECT c.id, c.account_id, c.user_id, c.api_key_id, c.sandbox, c.title, c.request, c.schedule,
		c.next_run_at FROM campaigns c
		WHERE c.enabled AND c.next_run_at <= $1 AND (c.retry_at IS NULL OR c.retry_at <= $1)
		AND NOT EXISTS (SELECT 1 FROM accounts a WHERE a.id = c.account_id AND a.status = 'suspended')
		ORDER BY c.next_run_at LIMIT 1 FOR UPDATE OF c SKIP LOCKED`, now).
		Scan(&d.id, &d.accountID, &d.userID, &d.apiKeyID, &d.sandbox, &d.title, &req, &sc, &d.at)
	if errors.Is(err, pgx.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("due campaign: %w", err)
	}
	if err := json.Unmarshal(req, &d.req); err != nil {
		d.broken = fmt.Errorf("campaign %d request: %w", d.id, err)
	} else if err := json.Unmarshal(sc, &d.sc); err != nil {
		d.broken = fmt.Errorf("campaign %d schedule: %w", d.id, err)
	}
	return true, nil
}

// try starts the run as a send made by ident, unless its schedule has no next run.
func (s *Service) try(ctx context.Context, d dueRun, ident acl.Identity, now time.Time) outcome {
	if d.broken != nil {
		return outcome{disable: true, cause: d.broken}
	}
	occasion := d.req.Occasion != nil
	next, err := nextAfter(d.sc, d.at, now, occasion)
	if err != nil {
		return outcome{disable: true, cause: err}
	}
	if occasion && now.Sub(d.at) > OccasionCatchUp {
		return outcome{failure: MsgOccasionMissed, next: next}
	}
	a, err := s.sends.CreateForCampaign(ctx, ident, withDay(d.req, d.at), runKey(d.id, d.at), d.id)
	if err == nil {
		return outcome{sendID: a.ID, next: next}
	}
	fe, ok := apperr.As(err)
	switch {
	case ok && fe.Kind == apperr.RateLimited:
		return outcome{retryAt: now.Add(time.Duration(max(fe.RetryAfter, 1)) * time.Second), cause: err}
	case !ok || fe.Kind == apperr.Internal:
		return outcome{retryAt: now.Add(RetryDelay), cause: err}
	case occasion && fe.Code == send.CodeNothingToSend:
		return outcome{empty: true, next: next}
	}
	return outcome{failure: userMessage(fe), next: next}
}

// nextAfter is the run after the one due at due, never sooner than MinInterval
// (schedules stored before that rule). A missed run's successor is counted from now;
// an occasion campaign's from due, so each missed day still in reach
// (OccasionCatchUp) is sent in turn.
func nextAfter(sc Schedule, due, now time.Time, occasion bool) (time.Time, error) {
	from := due
	switch {
	case occasion:
		from = later(due, now.Add(-OccasionCatchUp))
	case now.After(from):
		from = now
	}
	next, err := sc.Next(from)
	if err != nil {
		return time.Time{}, err
	}
	if soonest := from.Add(MinInterval); next.Before(soonest) {
		return soonest, nil
	}
	return next, nil
}

// record stores what the run did on the campaign (and its run row).
func record(ctx context.Context, tx pgx.Tx, d dueRun, out outcome) error {
	switch {
	case out.disable:
		_, err := tx.Exec(ctx, `UPDATE campaigns SET enabled = false, next_run_at = NULL, retry_at = NULL,
			updated_at = now() WHERE id = $1`, d.id)
		return err
	case out.stop:
		return stop(ctx, tx, d, out.failure)
	case !out.retryAt.IsZero():
		_, err := tx.Exec(ctx, `UPDATE campaigns SET retry_at = $2 WHERE id = $1`, d.id, out.retryAt)
		return err
	}
	status := RunSent
	switch {
	case out.failure != "":
		status = RunFailed
	case out.empty:
		status = RunEmpty
	}
	if _, err := tx.Exec(ctx, `INSERT INTO campaign_runs (campaign_id, due_at, send_id, status, error)
		VALUES ($1, $2, nullif($3, 0), $4, $5) ON CONFLICT (campaign_id, due_at) DO NOTHING`,
		d.id, d.at, out.sendID, status, out.failure); err != nil {
		return fmt.Errorf("record run: %w", err)
	}
	_, err := tx.Exec(ctx, `UPDATE campaigns SET next_run_at = $2, last_run_at = $3, runs = runs + 1, retry_at = NULL,
		failed_runs = failed_runs + CASE WHEN $4 THEN 1 ELSE 0 END, updated_at = now() WHERE id = $1`,
		d.id, out.next, d.at, out.failure != "")
	return err
}

// announce logs the run and tells the account's live clients.
func (s *Service) announce(ctx context.Context, d dueRun, out outcome) {
	event, data := "campaign.run", map[string]any{"id": d.id, "title": d.title, "at": d.at, "send_id": out.sendID}
	switch {
	case !out.retryAt.IsZero():
		slog.WarnContext(ctx, "campaign run postponed", "campaign", d.id, "due", d.at, "retry_at", out.retryAt, "err", out.cause)
		return
	case out.stop:
		slog.InfoContext(ctx, "campaign stopped: its maker can no longer send", "campaign", d.id, "error", out.failure)
		event, data = "campaign.failed", map[string]any{"id": d.id, "title": d.title, "at": d.at, "error": out.failure}
	case out.disable:
		slog.WarnContext(ctx, "campaign disabled: no next run", "campaign", d.id, "err", out.cause)
		event, data = "campaign.failed", map[string]any{"id": d.id, "title": d.title, "at": d.at, "error": MsgDisabled}
	case out.failure != "":
		slog.InfoContext(ctx, "campaign run failed", "campaign", d.id, "due", d.at, "error", out.failure)
		event, data = "campaign.failed", map[string]any{"id": d.id, "title": d.title, "at": d.at, "error": out.failure}
	case out.empty:
		slog.InfoContext(ctx, "occasion run without contacts", "campaign", d.id, "due", d.at)
		data["empty"] = true
	}
	if s.notify != nil {
		s.notify(ctx, d.accountID, event, data)
	}
}
