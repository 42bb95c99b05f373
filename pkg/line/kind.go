package line

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/chapar/chapar/pkg/apperr"
)

// MsgKind refuses a kind the lines table does not know.
const MsgKind = "نوع خط معتبر نیست"

// SetKind changes the kind of one of an account's lines (staff: the rules of a
// send read its line's kind). A kind the lines table refuses is a form error.
func (s *Service) SetKind(ctx context.Context, accountID, lineID int64, kind string) (before, after Line, err error) {
	err = pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		err := tx.QueryRow(ctx, `SELECT id, number, kind, is_default FROM lines WHERE id = $1 AND account_id = $2 FOR UPDATE`,
			lineID, accountID).Scan(&before.ID, &before.Number, &before.Kind, &before.IsDefault)
		if errors.Is(err, pgx.ErrNoRows) {
			return apperr.Field("line_id", MsgNotFound).WithCode("404")
		}
		if err != nil {
			return fmt.Errorf("find line: %w", err)
		}
		after = before
		after.Kind = kind
		_, err = tx.Exec(ctx, `UPDATE lines SET kind = $2 WHERE id = $1`, lineID, kind)
		var pe *pgconn.PgError
		if errors.As(err, &pe) && pe.Code == "23514" { // check_violation
			return apperr.Field("kind", MsgKind)
		}
		if err != nil {
			return fmt.Errorf("set line kind: %w", err)
		}
		return nil
	})
	return before, after, err
}
