package secretary

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/send"
)

// ReplyBatch is the most replies one send carries (send.MaxPatternRecipients).
const ReplyBatch = send.MaxPatternRecipients

// retryAfter is how long a claimed batch whose send failed (or whose worker died)
// waits before it is tried again with the same idempotency key.
const retryAfter = time.Minute

// SendReplies sends waiting replies: it claims the oldest reader's next batch
// (FOR UPDATE SKIP LOCKED, so several workers share the work), accepts one send
// of the reader's reply type for it, and records the send on the entries. A batch
// is keyed by its number, so a retry after a crash finds the send it made rather
// than sending twice. It returns how many replies were sent.
func (s *Service) SendReplies(ctx context.Context) (int, error) {
	batch, err := s.claim(ctx)
	if err != nil || batch == 0 {
		return 0, err
	}
	return s.sendBatch(ctx, batch)
}

// claim marks the next batch; 0 when nothing waits.
func (s *Service) claim(ctx context.Context) (int64, error) {
	var batch int64
	err := s.pool.QueryRow(ctx, `SELECT reply_batch FROM reader_entries WHERE reply_send_id IS NULL AND reply <> ''
		AND reply_batch IS NOT NULL AND claimed_at < now() - make_interval(secs => $1) ORDER BY id LIMIT 1`,
		retryAfter.Seconds()).Scan(&batch)
	if err == nil {
		_, err = s.pool.Exec(ctx, `UPDATE reader_entries SET claimed_at = now() WHERE reply_batch = $1`, batch)
		return batch, err
	}
	if !errors.Is(err, pgx.ErrNoRows) {
		return 0, fmt.Errorf("stale reply batch: %w", err)
	}
	err = s.pool.QueryRow(ctx, `WITH first AS (SELECT reader_id FROM reader_entries WHERE reply_send_id IS NULL AND reply <> ''
		AND reply_batch IS NULL ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED),
		b AS (SELECT id FROM reader_entries WHERE reader_id = (SELECT reader_id FROM first) AND reply_send_id IS NULL
			AND reply <> '' AND reply_batch IS NULL ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED),
		n AS (SELECT nextval('reader_reply_batches') AS batch WHERE EXISTS (SELECT 1 FROM b)),
		u AS (UPDATE reader_entries e SET reply_batch = n.batch, claimed_at = now() FROM b, n WHERE e.id = b.id)
		SELECT coalesce((SELECT batch FROM n), 0)`, ReplyBatch).Scan(&batch)
	if err != nil {
		return 0, fmt.Errorf("claim replies: %w", err)
	}
	return batch, nil
}

// sendBatch accepts the send of one claimed batch.
func (s *Service) sendBatch(ctx context.Context, batch int64) (int, error) {
	rows, err := s.pool.Query(ctx, `SELECT r.account_id, r.line, r.kind, e.sender, e.reply, e.masked
		FROM reader_entries e JOIN readers r ON r.id = e.reader_id
		WHERE e.reply_batch = $1 ORDER BY e.id`, batch)
	if err != nil {
		return 0, fmt.Errorf("read reply batch: %w", err)
	}
	var accountID int64
	var line, kind string
	var req send.Request
	for rows.Next() {
		var sender, text string
		var masked bool
		if err := rows.Scan(&accountID, &line, &kind, &sender, &text, &masked); err != nil {
			rows.Close()
			return 0, fmt.Errorf("read reply batch: %w", err)
		}
		req.Numbers, req.Texts = append(req.Numbers, sender), append(req.Texts, text)
		req.Masked = req.Masked || masked // one number of the bank masks the batch's report
	}
	rows.Close()
	if err := rows.Err(); err != nil || len(req.Numbers) == 0 {
		return 0, err
	}
	// The send's own text is its first reply (each recipient has its own).
	req.Type, req.Sender, req.Reply, req.Text = SendType(kind), line, true, req.Texts[0]
	a, _, err := s.sends.Create(ctx, acl.Identity{AccountID: accountID}, req, "reply:"+strconv.FormatInt(batch, 10), "")
	if err != nil {
		_, _ = s.pool.Exec(ctx, `UPDATE reader_entries SET reply_error = left($2, 300) WHERE reply_batch = $1`, batch, err.Error())
		slog.WarnContext(ctx, "secretary replies not sent; retried later", "batch", batch, "account", accountID, "err", err)
		return 0, nil
	}
	if _, err := s.pool.Exec(ctx, `UPDATE reader_entries SET reply_send_id = $2, reply_error = '' WHERE reply_batch = $1`,
		batch, a.ID); err != nil {
		return 0, fmt.Errorf("record reply send: %w", err)
	}
	return len(req.Numbers), nil
}

// RepliesLoop sends replies until ctx ends: at once while batches wait, else
// after pace(ctx) (the worker's lease.Lead.Pace of its poll).
func (s *Service) RepliesLoop(ctx context.Context, pace func(context.Context) time.Duration) {
	for {
		n, err := s.SendReplies(ctx)
		if err != nil {
			slog.WarnContext(ctx, "send secretary replies", "err", err)
		}
		if n > 0 {
			continue
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(pace(ctx)):
		}
	}
}
