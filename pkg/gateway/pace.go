package gateway

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/chapar/chapar/pkg/sendrules"
)

// Gradual sends (docs/sending-rules.md, pkg/send gradual.go). Before each chunk
// of a send with a pace the handler reserves what the pace has released: from
// the anchor pace_from (set at the first chunk and after every resume, so time
// paused or outside the window does not count) the send may have released
// pace_base + pace × elapsed + one minute's worth. Nothing released: the batch
// ends and the send notes when the next minute's worth is due
// (pace_wait_until); the worker enqueues its batches again then. Other sends
// claim as usual: the pace is per send and the fast lane never has one.

// paceState is a gradual send's pace as stored.
type paceState struct {
	perHour, base, released, total int
	from                           *time.Time
}

// step is one minute's worth of a pace (at least one recipient).
func step(perHour int) int { return max((perHour+59)/60, 1) }

// allowed is how many recipients the pace has released by now.
func (p paceState) allowed(now time.Time) int {
	el := max(now.Sub(*p.from), 0)
	return p.base + int(float64(p.perHour)*el.Hours()) + step(p.perHour)
}

// nextDue is when the pace releases the next minute's worth.
func (p paceState) nextDue(now time.Time) time.Time {
	at := p.from.Add(time.Duration(float64(p.released-p.base) / float64(p.perHour) * float64(time.Hour)))
	return maxTime(at, now.Add(time.Second))
}

func maxTime(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

// paceLimit is how many recipients a round may claim: the chunk, or for a
// gradual send what its pace has released (reserved; 0: none now, the batch
// ends and the send waits for its next allotment).
func (h *batchHandler) paceLimit(ctx context.Context, send sendRow) (int, error) {
	if send.PacePerHour <= 0 {
		return h.chunk, nil
	}
	tbl, err := h.rules.Table(ctx)
	if err != nil {
		return 0, err
	}
	w := tbl.Decide(h.now(), nil, send.LineKind, send.Own).Window
	return h.store.reservePace(ctx, send.ID, h.chunk, h.now(), w)
}

// reservePace reserves up to want recipients of the send's pace at now and
// returns how many; the first reservation after a resume anchors the pace at
// now and estimates the end within the window w.
func (st *store) reservePace(ctx context.Context, sendID int64, want int, now time.Time, w sendrules.Window) (int, error) {
	var n int
	err := pgx.BeginFunc(ctx, st.pool, func(tx pgx.Tx) error {
		var p paceState
		if err := tx.QueryRow(ctx, `SELECT pace_per_hour, pace_base, pace_released, recipients, pace_from FROM sends
			WHERE id = $1 AND pace_per_hour IS NOT NULL FOR NO KEY UPDATE`, sendID).
			Scan(&p.perHour, &p.base, &p.released, &p.total, &p.from); err != nil {
			return fmt.Errorf("pace of send %d: %w", sendID, err)
		}
		var end *time.Time
		if p.from == nil {
			p.from, p.base = &now, p.released
			left := time.Duration(float64(max(p.total-p.released, 0)) / float64(p.perHour) * float64(time.Hour))
			e := w.Finish(now, left).Truncate(time.Second)
			end = &e
		}
		n = min(max(p.allowed(now)-p.released, 0), want)
		var wait *time.Time
		if n == 0 {
			at := p.nextDue(now)
			wait = &at
		}
		_, err := tx.Exec(ctx, `UPDATE sends SET pace_from = $2, pace_base = $3, pace_released = pace_released + $4,
			pace_end_at = coalesce($5, pace_end_at), pace_wait_until = CASE WHEN $6::timestamptz IS NULL THEN pace_wait_until
			ELSE least(coalesce(pace_wait_until, $6), $6) END WHERE id = $1`, sendID, p.from, p.base, n, end, wait)
		if err != nil {
			return fmt.Errorf("reserve pace of send %d: %w", sendID, err)
		}
		return nil
	})
	return n, err
}

// returnPace gives back the part of a reservation the claim did not use (the
// batch had fewer recipients left).
func (st *store) returnPace(ctx context.Context, sendID int64, unused int) error {
	if unused <= 0 {
		return nil
	}
	if _, err := st.pool.Exec(ctx, `UPDATE sends SET pace_released = greatest(pace_released - $2, pace_base)
		WHERE id = $1`, sendID, unused); err != nil {
		return fmt.Errorf("return pace of send %d: %w", sendID, err)
	}
	return nil
}
