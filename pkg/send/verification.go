package send

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/hibiken/asynq"
	"github.com/jackc/pgx/v5"

	"github.com/chapar/chapar/jobs"
)

// HandleVerification is the worker's handler of one-time code messages: an SMS code
// becomes a send of type verification of the platform's own account (never the
// customer's: a colleague must not read the owner's codes in reports) from the
// system line, expanded and submitted on the critical queues; a voice code goes to the voice caller. The task id and the
// send's idempotency key make a retry a no-op.
func (s *Service) HandleVerification(call func(ctx context.Context, mobile, text string) error) asynq.HandlerFunc {
	return func(ctx context.Context, t *asynq.Task) error {
		var v jobs.Verification
		if err := json.Unmarshal(t.Payload(), &v); err != nil {
			return fmt.Errorf("verification payload: %w: %w", err, asynq.SkipRetry)
		}
		if v.Voice && call != nil {
			return call(ctx, v.Mobile, v.Text)
		}
		sys, err := s.lines.System(ctx)
		if err != nil {
			return err
		}
		key := fmt.Sprintf("otp:%d:%d", v.ChallengeID, v.Seq)
		var id int64
		err = s.pool.QueryRow(ctx, `INSERT INTO sends (account_id, user_id, type, line_id, sender, text, cancel11, encoding,
			parts, status, priority, idempotency_key, numbers, requested, purpose)
			SELECT (SELECT (value #>> '{}')::bigint FROM settings WHERE key = 'system_account'),
				u.id, 'verification', $2, $3, $4, false, 'ucs2', 1, 'queued', 'critical', $5, ARRAY[$6], 1, $7
			FROM users u WHERE u.id = $1
			ON CONFLICT (account_id, idempotency_key) DO UPDATE SET updated_at = sends.updated_at RETURNING id`,
			v.UserID, sys.ID, sys.Number, v.Text, key, v.Mobile, v.Purpose).Scan(&id)
		if errors.Is(err, pgx.ErrNoRows) {
			return fmt.Errorf("verification for unknown user %d: %w", v.UserID, asynq.SkipRetry)
		}
		if err != nil {
			return fmt.Errorf("verification send: %w", err)
		}
		return s.enqueueExpand(ctx, id, TypeVerification, time.Time{})
	}
}
