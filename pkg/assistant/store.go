package assistant

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/chapar/chapar/pkg/apperr"
)

// Retention is how long a conversation is kept after its last message.
const Retention = 30 * 24 * time.Hour

// historyTurns is how many earlier messages a model sees.
const historyTurns = 10

// spend counts one request against the account's daily quota (days of Tehran)
// and reports false when the quota is used up.
func spend(ctx context.Context, pool *pgxpool.Pool, accountID int64, quota int) (bool, error) {
	var n int
	err := pool.QueryRow(ctx, `INSERT INTO assistant_usage (account_id, day, requests)
		VALUES ($1, (now() AT TIME ZONE 'Asia/Tehran')::date, 1)
		ON CONFLICT (account_id, day) DO UPDATE SET requests = assistant_usage.requests + 1
		WHERE assistant_usage.requests < $2
		RETURNING requests`, accountID, quota).Scan(&n)
	if errors.Is(err, pgx.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("assistant quota: %w", err)
	}
	return n <= quota, nil
}

// history returns the last messages of the account's conversation, oldest
// first; a conversation of another account is not found.
func history(ctx context.Context, pool *pgxpool.Pool, accountID, conversationID int64) ([]Message, error) {
	var ok bool
	if err := pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM assistant_conversations WHERE id = $1 AND account_id = $2)`,
		conversationID, accountID).Scan(&ok); err != nil {
		return nil, fmt.Errorf("assistant conversation: %w", err)
	}
	if !ok {
		return nil, apperr.ErrNotFound
	}
	rows, err := pool.Query(ctx, `SELECT CASE kind WHEN 'ai' THEN 'assistant' ELSE 'user' END, text FROM (
		SELECT id, kind, text FROM assistant_messages WHERE conversation_id = $1 ORDER BY id DESC LIMIT $2) m
		ORDER BY id`, conversationID, historyTurns)
	if err != nil {
		return nil, fmt.Errorf("assistant history: %w", err)
	}
	out, err := pgx.CollectRows(rows, pgx.RowToStructByPos[Message])
	if err != nil {
		return nil, fmt.Errorf("assistant history: %w", err)
	}
	return out, nil
}

// record stores a turn (the user's words and the reply, when there is one) in one transaction,
// opening the conversation when conversationID is 0, and returns its id.
func record(ctx context.Context, pool *pgxpool.Pool, accountID, userID, conversationID int64, asked, answer string) (int64, error) {
	err := pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
		if conversationID == 0 {
			if err := tx.QueryRow(ctx, `INSERT INTO assistant_conversations (account_id, user_id)
				VALUES ($1, nullif($2, 0)) RETURNING id`, accountID, userID).Scan(&conversationID); err != nil {
				return err
			}
		} else if _, err := tx.Exec(ctx, `UPDATE assistant_conversations SET last_at = now()
			WHERE id = $1 AND account_id = $2`, conversationID, accountID); err != nil {
			return err
		}
		// A refused free request has no reply text: only the request is kept.
		_, err := tx.Exec(ctx, `INSERT INTO assistant_messages (conversation_id, kind, text)
			SELECT $1, kind, text FROM (VALUES (1, 'user', $2::text), (2, 'ai', $3::text)) m(n, kind, text)
			WHERE text <> '' ORDER BY n`, conversationID, asked, answer)
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("assistant record: %w", err)
	}
	return conversationID, nil
}

// Purge deletes up to limit conversations whose last message is older than
// Retention (their messages go with them) and returns how many went.
func Purge(ctx context.Context, pool *pgxpool.Pool, limit int) (int64, error) {
	tag, err := pool.Exec(ctx, `DELETE FROM assistant_conversations WHERE id = ANY(ARRAY(
		SELECT id FROM assistant_conversations WHERE last_at < now() - $1::interval LIMIT $2))`, Retention, limit)
	if err != nil {
		return 0, fmt.Errorf("purge assistant conversations: %w", err)
	}
	return tag.RowsAffected(), nil
}
