package inbox

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// ThreadLimit is how many of the latest entries a conversation shows.
const ThreadLimit = 200

// ReplyRecord is a reply sent from the inbox: the send that carries it and the
// message it answers.
type ReplyRecord struct {
	AccountID int64
	MessageID int64
	SendID    int64
	Text      string
	Reply
}

// RecordReply marks the answered message read and replied and keeps the reply
// for the conversation view, in one transaction. Recording the same send again
// (an idempotent replay of the reply) changes nothing.
func (s *Service) RecordReply(ctx context.Context, r ReplyRecord) error {
	return pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `INSERT INTO inbox_replies (send_id, account_id, inbox_id, mobile, masked, line, text)
			VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (send_id) DO NOTHING`,
			r.SendID, r.AccountID, r.MessageID, r.To, r.Masked, r.Line, r.Text); err != nil {
			return fmt.Errorf("record reply: %w", err)
		}
		if _, err := tx.Exec(ctx, `UPDATE inbox SET read_at = coalesce(read_at, now()), replied_at = coalesce(replied_at, now())
			WHERE id = $1 AND account_id = $2`, r.MessageID, r.AccountID); err != nil {
			return fmt.Errorf("mark replied: %w", err)
		}
		return nil
	})
}

// ThreadEntry is one message of a conversation: received ("in") or a reply sent
// from the inbox ("out", with its send's status).
type ThreadEntry struct {
	Direction string    `json:"direction"` // in, out
	ID        int64     `json:"id"`        // the inbox id (in) or the send id (out)
	Line      string    `json:"line"`
	Text      string    `json:"text"`
	At        time.Time `json:"at"`
	Status    string    `json:"status,omitempty"` // out: the send's status
}

// Thread is the conversation with one number: who it is (as the customer sees
// the number) and its entries, oldest first.
type Thread struct {
	Sender  string        `json:"sender"`
	Masked  bool          `json:"masked"`
	Entries []ThreadEntry `json:"entries"`
}

// ThreadOf returns the conversation with the sender of one of the account's
// received messages: the messages received from that number and the replies sent
// to it from the inbox, the latest ThreadLimit of them in time order. A message
// of another account is MsgMessageNotFound.
func (s *Service) ThreadOf(ctx context.Context, accountID, messageID int64) (Thread, error) {
	r, err := s.ReplyOf(ctx, accountID, messageID)
	if err != nil {
		return Thread{}, err
	}
	rows, err := s.pool.Query(ctx, `SELECT * FROM (
			(SELECT 'in', id, line, text, received_at, '' FROM inbox
				WHERE account_id = $1 AND sender = $2 AND masked = $3 ORDER BY received_at DESC LIMIT $4)
			UNION ALL
			(SELECT 'out', r.send_id, r.line, r.text, r.created_at, s.status FROM inbox_replies r JOIN sends s ON s.id = r.send_id
				WHERE r.account_id = $1 AND r.mobile = $2 AND r.masked = $3 ORDER BY r.created_at DESC LIMIT $4)
		) t (direction, id, line, text, at, status) ORDER BY at DESC, direction LIMIT $4`,
		accountID, r.To, r.Masked, ThreadLimit)
	if err != nil {
		return Thread{}, fmt.Errorf("read thread: %w", err)
	}
	entries, err := pgx.CollectRows(rows, pgx.RowToStructByPos[ThreadEntry])
	if err != nil {
		return Thread{}, fmt.Errorf("read thread: %w", err)
	}
	for i, j := 0, len(entries)-1; i < j; i, j = i+1, j-1 {
		entries[i], entries[j] = entries[j], entries[i]
	}
	return Thread{Sender: Shown(r.Masked, r.To), Masked: r.Masked, Entries: entries}, nil
}
