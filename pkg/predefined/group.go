package predefined

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/chapar/chapar/internal/platform/db"
	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/audit"
	"github.com/chapar/chapar/pkg/validate"
)

// Group is a titled group of predefined messages with the count of its messages.
type Group struct {
	ID        int64     `json:"id"`
	Title     string    `json:"title"`
	Messages  int64     `json:"messages"`
	CreatedAt time.Time `json:"created_at"`
}

// GroupInput is the create and update form (ID only on update).
type GroupInput struct {
	ID    int64  `json:"id"`
	Title string `json:"title"`
}

// Counts are the account's totals (GET …/group/count).
type Counts struct {
	Groups   int64 `json:"groups"`
	Messages int64 `json:"messages"`
	Drafts   int64 `json:"drafts"`
}

const groupCols = `g.id, g.title, (SELECT count(*) FROM predefined_messages m WHERE m.group_id = g.id), g.created_at`

func scanGroup(r pgx.CollectableRow) (Group, error) {
	var g Group
	err := r.Scan(&g.ID, &g.Title, &g.Messages, &g.CreatedAt)
	return g, err
}

// Groups returns a page of the account's groups (title search), by title, each with
// its count of messages.
func (s *Service) Groups(ctx context.Context, id acl.Identity, search string, p validate.Paging) ([]Group, int64, error) {
	return db.Page(ctx, s.pool, "predefined groups", groupCols,
		`FROM predefined_groups g WHERE g.account_id = $1 AND g.title ILIKE $2`, "g.title, g.id",
		[]any{id.AccountID, db.Contains(search)}, p.Limit, p.Page, scanGroup)
}

// Group returns one group of the account.
func (s *Service) Group(ctx context.Context, id acl.Identity, groupID int64) (Group, error) {
	rows, err := s.pool.Query(ctx, `SELECT `+groupCols+` FROM predefined_groups g WHERE g.id = $1 AND g.account_id = $2`,
		groupID, id.AccountID)
	if err != nil {
		return Group{}, fmt.Errorf("show predefined group: %w", err)
	}
	g, err := pgx.CollectExactlyOneRow(rows, scanGroup)
	return g, notFound(err, "show predefined group")
}

// Count returns the account's numbers of groups, messages and drafts.
func (s *Service) Count(ctx context.Context, id acl.Identity) (Counts, error) {
	var c Counts
	err := s.pool.QueryRow(ctx, `SELECT (SELECT count(*) FROM predefined_groups WHERE account_id = $1),
		(SELECT count(*) FROM predefined_messages WHERE account_id = $1),
		(SELECT count(*) FROM drafts WHERE account_id = $1)`, id.AccountID).Scan(&c.Groups, &c.Messages, &c.Drafts)
	if err != nil {
		return Counts{}, fmt.Errorf("count predefined: %w", err)
	}
	return c, nil
}

// CreateGroup adds a group; titles are unique within the account.
func (s *Service) CreateGroup(ctx context.Context, id acl.Identity, in GroupInput) (Group, error) {
	f := apperr.Fields{}
	title := cleanTitle(f, "title", in.Title, true)
	if err := f.Err(); err != nil {
		return Group{}, err
	}
	var gid int64
	err := s.inTx(ctx, id, audit.Entry{Action: audit.PredefinedGroupCreate, TargetType: "predefined_group", After: map[string]any{"title": title}},
		func(tx pgx.Tx) error {
			var n int
			if err := tx.QueryRow(ctx, `SELECT count(*) FROM predefined_groups WHERE account_id = $1`, id.AccountID).Scan(&n); err != nil {
				return fmt.Errorf("count predefined groups: %w", err)
			}
			if n >= MaxGroups {
				return apperr.Field("title", MsgTooManyGroup)
			}
			return groupWrite(tx.QueryRow(ctx, `INSERT INTO predefined_groups (account_id, title) VALUES ($1, $2) RETURNING id`,
				id.AccountID, title).Scan(&gid))
		})
	if err != nil {
		return Group{}, err
	}
	return s.Group(ctx, id, gid)
}

// UpdateGroup renames a group of the account.
func (s *Service) UpdateGroup(ctx context.Context, id acl.Identity, in GroupInput) (Group, error) {
	f := apperr.Fields{}
	title := cleanTitle(f, "title", in.Title, true)
	if err := f.Err(); err != nil {
		return Group{}, err
	}
	var before string
	err := s.inTx(ctx, id, audit.Entry{Action: audit.PredefinedGroupUpdate, TargetType: "predefined_group", Target: fmt.Sprint(in.ID),
		After: map[string]any{"title": title}}, func(tx pgx.Tx) error {
		err := tx.QueryRow(ctx, `SELECT title FROM predefined_groups WHERE id = $1 AND account_id = $2 FOR UPDATE`,
			in.ID, id.AccountID).Scan(&before)
		if err := notFound(err, "find predefined group"); err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `UPDATE predefined_groups SET title = $3, updated_at = now() WHERE id = $1 AND account_id = $2`,
			in.ID, id.AccountID, title)
		return groupWrite(err)
	})
	if err != nil {
		return Group{}, err
	}
	return s.Group(ctx, id, in.ID)
}

// DeleteGroup removes a group of the account and its messages.
func (s *Service) DeleteGroup(ctx context.Context, id acl.Identity, groupID int64, ip string) error {
	return s.deleteOne(ctx, id, "predefined_groups", audit.PredefinedGroupDelete, groupID, ip)
}

// groupWrite maps a duplicate title to 409 with the field message.
func groupWrite(err error) error {
	if isUnique(err) {
		e := apperr.Field("title", MsgGroupExists)
		e.Kind = apperr.Conflict
		return e
	}
	if err != nil {
		return fmt.Errorf("write predefined group: %w", err)
	}
	return nil
}
