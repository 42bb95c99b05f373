package predefined

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/chapar/chapar/internal/platform/db"
	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/audit"
	"github.com/chapar/chapar/pkg/validate"
)

// Message is a predefined message: a titled text in one group.
type Message struct {
	ID         int64     `json:"id"`
	GroupID    int64     `json:"group_id"`
	GroupTitle string    `json:"group_title"`
	Title      string    `json:"title"`
	Text       string    `json:"text"`
	UpdatedAt  time.Time `json:"updated_at"`
}

// MessageInput is the create and update form (ID only on update).
type MessageInput struct {
	ID      int64  `json:"id"`
	GroupID int64  `json:"group_id"`
	Title   string `json:"title"`
	Text    string `json:"text"`
}

// MessageFilter narrows the list: a group (0 for all) and a search in title and text.
type MessageFilter struct {
	GroupID int64
	Search  string
}

const messageCols = `m.id, m.group_id, g.title, m.title, m.text, m.updated_at`

func scanMessage(r pgx.CollectableRow) (Message, error) {
	var m Message
	err := r.Scan(&m.ID, &m.GroupID, &m.GroupTitle, &m.Title, &m.Text, &m.UpdatedAt)
	return m, err
}

// Messages returns a page of the account's messages, newest first.
func (s *Service) Messages(ctx context.Context, id acl.Identity, f MessageFilter, p validate.Paging) ([]Message, int64, error) {
	return db.Page(ctx, s.pool, "predefined messages", messageCols,
		`FROM predefined_messages m JOIN predefined_groups g ON g.id = m.group_id
		WHERE m.account_id = $1 AND ($2 = 0 OR m.group_id = $2) AND (m.title ILIKE $3 OR m.text ILIKE $3)`,
		"m.id DESC", []any{id.AccountID, f.GroupID, db.Contains(f.Search)}, p.Limit, p.Page, scanMessage)
}

// Message returns one message of the account.
func (s *Service) Message(ctx context.Context, id acl.Identity, msgID int64) (Message, error) {
	rows, err := s.pool.Query(ctx, `SELECT `+messageCols+` FROM predefined_messages m JOIN predefined_groups g ON g.id = m.group_id
		WHERE m.id = $1 AND m.account_id = $2`, msgID, id.AccountID)
	if err != nil {
		return Message{}, fmt.Errorf("show predefined message: %w", err)
	}
	m, err := pgx.CollectExactlyOneRow(rows, scanMessage)
	return m, notFound(err, "show predefined message")
}

// checkMessage validates the form: every problem at once, in Persian.
func checkMessage(in MessageInput) (MessageInput, error) {
	f := apperr.Fields{}
	in.Title = cleanTitle(f, "title", in.Title, true)
	checkText(f, "text", in.Text, true)
	if in.GroupID <= 0 {
		f.Add("group_id", MsgGroup)
	}
	return in, f.Err()
}

// ownGroup locks the account's group in tx; another account's group is a field error.
func ownGroup(ctx context.Context, tx pgx.Tx, id acl.Identity, groupID int64) error {
	var one int
	err := tx.QueryRow(ctx, `SELECT 1 FROM predefined_groups WHERE id = $1 AND account_id = $2 FOR SHARE`, groupID, id.AccountID).Scan(&one)
	if errors.Is(err, pgx.ErrNoRows) {
		return apperr.Field("group_id", MsgGroupUnknown)
	}
	if err != nil {
		return fmt.Errorf("find predefined group: %w", err)
	}
	return nil
}

// CreateMessage adds a message to a group of the account.
func (s *Service) CreateMessage(ctx context.Context, id acl.Identity, in MessageInput) (Message, error) {
	in, err := checkMessage(in)
	if err != nil {
		return Message{}, err
	}
	var mid int64
	err = s.inTx(ctx, id, audit.Entry{Action: audit.PredefinedCreate, TargetType: "predefined_message",
		After: map[string]any{"group_id": in.GroupID, "title": in.Title}}, func(tx pgx.Tx) error {
		if err := ownGroup(ctx, tx, id, in.GroupID); err != nil {
			return err
		}
		var n int
		if err := tx.QueryRow(ctx, `SELECT count(*) FROM predefined_messages WHERE account_id = $1`, id.AccountID).Scan(&n); err != nil {
			return fmt.Errorf("count predefined messages: %w", err)
		}
		if n >= MaxMessages {
			return apperr.Field("title", MsgTooManyMsg)
		}
		err := tx.QueryRow(ctx, `INSERT INTO predefined_messages (account_id, group_id, title, text) VALUES ($1, $2, $3, $4) RETURNING id`,
			id.AccountID, in.GroupID, in.Title, in.Text).Scan(&mid)
		if err != nil {
			return fmt.Errorf("insert predefined message: %w", err)
		}
		return nil
	})
	if err != nil {
		return Message{}, err
	}
	return s.Message(ctx, id, mid)
}

// UpdateMessage edits a message of the account (it may move to another of its groups).
func (s *Service) UpdateMessage(ctx context.Context, id acl.Identity, in MessageInput) (Message, error) {
	in, err := checkMessage(in)
	if err != nil {
		return Message{}, err
	}
	err = s.inTx(ctx, id, audit.Entry{Action: audit.PredefinedUpdate, TargetType: "predefined_message", Target: fmt.Sprint(in.ID),
		After: map[string]any{"group_id": in.GroupID, "title": in.Title}}, func(tx pgx.Tx) error {
		var one int
		err := tx.QueryRow(ctx, `SELECT 1 FROM predefined_messages WHERE id = $1 AND account_id = $2 FOR UPDATE`, in.ID, id.AccountID).Scan(&one)
		if err := notFound(err, "find predefined message"); err != nil {
			return err
		}
		if err := ownGroup(ctx, tx, id, in.GroupID); err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `UPDATE predefined_messages SET group_id = $3, title = $4, text = $5, updated_at = now()
			WHERE id = $1 AND account_id = $2`, in.ID, id.AccountID, in.GroupID, in.Title, in.Text)
		if err != nil {
			return fmt.Errorf("update predefined message: %w", err)
		}
		return nil
	})
	if err != nil {
		return Message{}, err
	}
	return s.Message(ctx, id, in.ID)
}

// DeleteMessage removes a message of the account.
func (s *Service) DeleteMessage(ctx context.Context, id acl.Identity, msgID int64, ip string) error {
	return s.deleteOne(ctx, id, "predefined_messages", audit.PredefinedDelete, msgID, ip)
}
