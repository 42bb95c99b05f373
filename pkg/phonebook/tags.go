package phonebook

import (
	"context"
	"fmt"
	"strconv"

	"github.com/jackc/pgx/v5"

	"github.com/chapar/chapar/internal/platform/db"
	"github.com/chapar/chapar/pkg/apperr"
)

// Tag is a label of contacts («برچسب»), with how many contacts carry it.
type Tag struct {
	ID       int64  `json:"id"`
	Name     string `json:"name"`
	Contacts int64  `json:"contacts"`
}

// Tags lists the account's tags by name; search matches the name.
func (s *Service) Tags(ctx context.Context, accountID int64, search string) ([]Tag, error) {
	rows, err := s.pool.Query(ctx, `SELECT t.id, t.name,
		(SELECT count(*) FROM contacts c WHERE c.tag_ids @> ARRAY[t.id] AND c.account_id = t.account_id)
		FROM contact_tags t WHERE t.account_id = $1 AND t.name ILIKE $2 ORDER BY t.name, t.id`,
		accountID, db.Contains(normalizeText(search)))
	if err != nil {
		return nil, fmt.Errorf("list tags: %w", err)
	}
	out, err := pgx.CollectRows(rows, pgx.RowToStructByPos[Tag])
	if err != nil {
		return nil, fmt.Errorf("list tags: %w", err)
	}
	return out, nil
}

// CreateTag adds a tag.
func (s *Service) CreateTag(ctx context.Context, a Actor, name string) (Tag, error) {
	names, ok := tagNames([]string{name})
	if !ok {
		return Tag{}, apperr.Field("name", MsgTagName)
	}
	t := Tag{Name: names[0]}
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		err := tx.QueryRow(ctx, `INSERT INTO contact_tags (account_id, name) VALUES ($1, $2) RETURNING id`,
			a.AccountID, t.Name).Scan(&t.ID)
		if _, dup := uniqueViolation(err); dup {
			return conflict("name", MsgTagTaken)
		}
		if err != nil {
			return fmt.Errorf("create tag: %w", err)
		}
		return a.audit(ctx, tx, "contact_tag.create", strconv.FormatInt(t.ID, 10), map[string]any{"name": t.Name})
	})
	return t, err
}

// DeleteTags deletes tags and takes them off every contact. Any id that is not the
// account's is a 404 and nothing is deleted.
func (s *Service) DeleteTags(ctx context.Context, a Actor, ids []int64) (int, error) {
	return s.deleteList(ctx, a, "contact_tags", "contact_tag.delete", ids, func(tx pgx.Tx, ids []int64) error {
		if _, err := tx.Exec(ctx, `UPDATE contacts SET tag_ids = ARRAY(SELECT t FROM unnest(tag_ids) t WHERE t <> ALL($2))
			WHERE account_id = $1 AND tag_ids && $2::bigint[]`, a.AccountID, ids); err != nil {
			return fmt.Errorf("untag contacts: %w", err)
		}
		return nil
	})
}
