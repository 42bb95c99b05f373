package db

import (
	"context"
	"fmt"
	"strconv"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// Page reads one page of a filtered list and the count of the whole list: from is
// the FROM … WHERE … part both queries share (its parameters are args), cols the
// selected columns and order the ORDER BY clause; the page's LIMIT and OFFSET are
// appended as the next two parameters. what names the list in errors.
func Page[T any](ctx context.Context, pool *pgxpool.Pool, what, cols, from, order string, args []any,
	limit, page int, scan pgx.RowToFunc[T]) ([]T, int64, error) {
	var total int64
	if err := pool.QueryRow(ctx, `SELECT count(*) `+from, args...).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("count %s: %w", what, err)
	}
	n := len(args)
	q := `SELECT ` + cols + ` ` + from + ` ORDER BY ` + order +
		` LIMIT $` + strconv.Itoa(n+1) + ` OFFSET $` + strconv.Itoa(n+2)
	rows, err := pool.Query(ctx, q, append(args, limit, (page-1)*limit)...)
	if err != nil {
		return nil, 0, fmt.Errorf("read %s: %w", what, err)
	}
	out, err := pgx.CollectRows(rows, scan)
	if err != nil {
		return nil, 0, fmt.Errorf("read %s: %w", what, err)
	}
	return out, total, nil
}
