package campaign

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/persian"
	"github.com/chapar/chapar/pkg/send"
)

// Occasion campaigns («پیام مناسبتی», docs/campaigns.md) are daily campaigns whose
// phonebook send carries an occasion: each run reaches the contacts whose date
// falls on the run's scheduled day (in Tehran), never "today" as the clock reads
// it when the run is late. Every day is sent once: a missed day is still sent
// within OccasionCatchUp, an edit or a resume never plans a second run of a day
// already sent, and a day without contacts is a quiet, empty run.

// OccasionCatchUp is how late a missed occasion run is still sent; an older one is
// recorded as failed (MsgOccasionMissed) and the campaign goes on from the days
// still in reach.
const OccasionCatchUp = 48 * time.Hour

// Persian messages of occasion campaigns.
const (
	MsgOccasionDaily  = "پیام مناسبتی هر روز در ساعت انتخاب‌شده فرستاده می‌شود؛ تکرار را «روزانه» بگذارید"
	MsgOccasionMissed = "این اجرا بیش از دو روز عقب افتاد و پیام‌های مناسبتی آن روز فرستاده نشد"
	MsgNotOccasion    = "این کمپین پیام مناسبتی نیست"
	MsgSentToday      = "پیام‌های مناسبتی امروز این کمپین پیش‌تر فرستاده شده است"
)

// Run statuses.
const (
	RunSent   = "sent"
	RunFailed = "failed"
	// RunEmpty: no contact had the occasion that day; nothing was sent or charged.
	RunEmpty = "empty"
)

// LastRun is a campaign's newest run: what became of it and, for a send, its status
// and how many recipients it reached (0 until it is expanded).
type LastRun struct {
	At         time.Time `json:"at"`
	Status     string    `json:"status"`
	Error      string    `json:"error,omitempty"`
	SendID     *int64    `json:"send_id"`
	SendStatus string    `json:"send_status,omitempty"`
	Recipients int       `json:"recipients"`
}

// later is the later of two times.
func later(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

// dayOf is the Tehran calendar day of t, as an occasion's run day.
func dayOf(t time.Time) string { return t.In(persian.Tehran).Format(time.DateOnly) }

// withDay is a run's request: an occasion's day is the run's scheduled day.
func withDay(r send.Request, due time.Time) send.Request {
	if r.Occasion != nil {
		o := *r.Occasion
		o.On = dayOf(due)
		r.Occasion = &o
	}
	return r
}

// runKey is the idempotency key of a campaign's run due at due: a retried run, or
// today's run sent early by RunToday, returns the same send.
func runKey(campaignID int64, due time.Time) string {
	return fmt.Sprintf("campaign:%d:%d", campaignID, due.Unix())
}

// notBefore is the earliest an occasion campaign's next run may come: the day after
// its last sent run (an edit or a resume never sends a day twice). Zero for any
// other campaign.
func (s *Service) notBefore(ctx context.Context, accountID, campaignID int64, occasion bool) (time.Time, error) {
	if !occasion {
		return time.Time{}, nil
	}
	var last *time.Time
	if err := s.pool.QueryRow(ctx, `SELECT max(r.due_at) FROM campaign_runs r JOIN campaigns c ON c.id = r.campaign_id
		WHERE c.account_id = $1 AND r.campaign_id = $2 AND r.status = $3`, accountID, campaignID, RunSent).Scan(&last); err != nil {
		return time.Time{}, fmt.Errorf("last sent run: %w", err)
	}
	if last == nil {
		return time.Time{}, nil
	}
	l := last.In(persian.Tehran)
	return time.Date(l.Year(), l.Month(), l.Day()+1, 0, 0, 0, 0, persian.Tehran).Add(-time.Nanosecond), nil
}

// lastRuns fills the last run of each listed campaign.
func (s *Service) lastRuns(ctx context.Context, list []Campaign) error {
	if len(list) == 0 {
		return nil
	}
	ids := make([]int64, len(list))
	at := make(map[int64]int, len(list))
	for i, c := range list {
		ids[i], at[c.ID] = c.ID, i
	}
	rows, err := s.pool.Query(ctx, `SELECT DISTINCT ON (r.campaign_id) r.campaign_id, r.due_at, r.status, r.error, r.send_id,
		coalesce(x.status, ''), coalesce(x.recipients, 0)
		FROM campaign_runs r LEFT JOIN sends x ON x.id = r.send_id
		WHERE r.campaign_id = ANY($1) ORDER BY r.campaign_id, r.due_at DESC`, ids)
	if err != nil {
		return fmt.Errorf("last runs: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var r LastRun
		if err := rows.Scan(&id, &r.At, &r.Status, &r.Error, &r.SendID, &r.SendStatus, &r.Recipients); err != nil {
			return fmt.Errorf("last runs: %w", err)
		}
		list[at[id]].LastRun = &r
	}
	return rows.Err()
}

// RunToday sends an occasion campaign's run of today now, as the caller: the run
// due today at the campaign's hour, with the same idempotency key, so the scheduled
// run of the day never sends it again. A day already sent is refused (409).
func (s *Service) RunToday(ctx context.Context, id acl.Identity, campaignID int64) (send.Accepted, error) {
	now := s.Now()
	var a send.Accepted
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		var req send.Request
		var sc Schedule
		err := tx.QueryRow(ctx, `SELECT request, schedule FROM campaigns WHERE account_id = $1 AND id = $2 FOR UPDATE`,
			id.AccountID, campaignID).Scan(&req, &sc)
		if errors.Is(err, pgx.ErrNoRows) {
			return apperr.ErrNotFound
		}
		if err != nil {
			return fmt.Errorf("campaign %d: %w", campaignID, err)
		}
		h, m, ok := sc.clock()
		if req.Occasion == nil || !ok {
			return apperr.New(apperr.Invalid, MsgNotOccasion)
		}
		local := now.In(persian.Tehran)
		due := time.Date(local.Year(), local.Month(), local.Day(), h, m, 0, 0, persian.Tehran)
		var sent bool
		if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM campaign_runs WHERE campaign_id = $1 AND due_at = $2 AND status = $3)`,
			campaignID, due, RunSent).Scan(&sent); err != nil {
			return fmt.Errorf("today's run: %w", err)
		}
		if sent {
			return apperr.New(apperr.Conflict, MsgSentToday)
		}
		if a, err = s.sends.CreateForCampaign(ctx, id, withDay(req, due), runKey(campaignID, due), campaignID); err != nil {
			return err
		}
		next, err := sc.Next(due)
		if err != nil {
			return fmt.Errorf("campaign %d next run: %w", campaignID, err)
		}
		return recordToday(ctx, tx, campaignID, due, next, a.ID)
	})
	return a, err
}

// recordToday stores today's run sent by RunToday; when it was the campaign's next
// run, the next one is tomorrow's.
func recordToday(ctx context.Context, tx pgx.Tx, campaignID int64, due, next time.Time, sendID int64) error {
	if _, err := tx.Exec(ctx, `INSERT INTO campaign_runs (campaign_id, due_at, send_id, status) VALUES ($1, $2, $3, $4)
		ON CONFLICT (campaign_id, due_at) DO UPDATE SET send_id = excluded.send_id, status = excluded.status, error = ''`,
		campaignID, due, sendID, RunSent); err != nil {
		return fmt.Errorf("record today's run: %w", err)
	}
	if _, err := tx.Exec(ctx, `UPDATE campaigns SET runs = runs + 1, last_run_at = greatest(last_run_at, $2),
		retry_at = CASE WHEN next_run_at = $2 THEN NULL ELSE retry_at END,
		next_run_at = CASE WHEN next_run_at = $2 THEN $3 ELSE next_run_at END, updated_at = now() WHERE id = $1`,
		campaignID, due, next); err != nil {
		return fmt.Errorf("record today's run: %w", err)
	}
	return nil
}
