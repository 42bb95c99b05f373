package gateway

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// Sending hours (docs/sending-rules.md). Before each chunk the handler asks the
// rules whether its send may go to the batch's operator now: outside the
// window the send is paused (pause_reason 'window', resume_at the window's next
// opening) and the worker resumes it then; inside, the chunk's claim carries
// the instant the window closes, after which the recorder grants nothing more,
// so nothing is submitted outside the window even between two chunks.

// checkHours pauses the send when its sending hours are closed for the batch's
// operator (done: the batch stops; Resume enqueues it again) and otherwise
// notes when they close.
func (h *batchHandler) checkHours(ctx context.Context, r *batchRun, send sendRow) (bool, error) {
	tbl, err := h.rules.Table(ctx)
	if err != nil {
		return true, err
	}
	d := tbl.Decide(h.now(), []string{r.b.Operator}, send.LineKind, send.Own)
	if d.Open {
		r.closes = d.Closes
		return false, nil
	}
	if err := h.store.pauseForWindow(ctx, send.ID, d.Next); err != nil {
		return true, err
	}
	r.log.Info("send paused outside its sending hours", "resume_at", d.Next)
	h.markDirty(ctx, send.ID, r.log)
	return true, nil
}

// pauseForWindow pauses a queued or sending send until resumeAt (the earliest
// when several batches pause it), recorded as the system's pause. A send
// already paused or stopped is left as it is.
func (st *store) pauseForWindow(ctx context.Context, sendID int64, resumeAt time.Time) error {
	var at *time.Time
	if !resumeAt.IsZero() {
		at = &resumeAt
	}
	return pgx.BeginFunc(ctx, st.pool, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `UPDATE sends SET status = 'paused', pause_reason = 'window', resume_at = $2,
			paused_at = now(), updated_at = now() WHERE id = $1 AND status IN ('queued', 'sending')`, sendID, at)
		if err != nil {
			return fmt.Errorf("pause send %d outside its hours: %w", sendID, err)
		}
		if tag.RowsAffected() == 0 {
			// Paused already: an earlier opening (another operator's) wins.
			if _, err := tx.Exec(ctx, `UPDATE sends SET resume_at = least(resume_at, $2) WHERE id = $1
				AND status = 'paused' AND pause_reason = 'window'`, sendID, at); err != nil {
				return fmt.Errorf("pause send %d outside its hours: %w", sendID, err)
			}
			return nil
		}
		if _, err := tx.Exec(ctx, `INSERT INTO send_controls (send_id, action, details) VALUES ($1, 'pause', $2)`,
			sendID, map[string]any{"reason": "window", "resume_at": at}); err != nil {
			return fmt.Errorf("record window pause of send %d: %w", sendID, err)
		}
		return nil
	})
}
