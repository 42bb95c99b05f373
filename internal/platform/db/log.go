package db

import (
	"context"
	"fmt"
	"math"
	"strconv"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// LogChunk is how many rows one keyset step of Log.Each reads unless its Chunk says.
const LogChunk = 2000

// Log is a filtered log read newest first by its id column: a page with the
// list's total for the panel, or every row in keyset steps for an export. From is
// the FROM … WHERE … part (its parameters are the caller's args), Cols the select
// list, ID the id column (e.g. "l.id"), Scan a row's reader and IDOf a row's id;
// Chunk is the rows of one export step (LogChunk when 0).
type Log[T any] struct {
	What  string
	Cols  string
	From  string
	ID    string
	Scan  pgx.RowToFunc[T]
	IDOf  func(T) int64
	Chunk int
}

// Page reads one page, newest first, and the count of the whole filtered log.
func (l Log[T]) Page(ctx context.Context, pool *pgxpool.Pool, args []any, limit, page int) ([]T, int64, error) {
	return Page(ctx, pool, l.What, l.Cols, l.From, l.ID+" DESC", args, limit, page, l.Scan)
}

// Each calls fn with every row of the filtered log, newest first, reading
// Chunk rows at a time by keyset (below the last id read), so memory stays flat
// and rows written meanwhile neither repeat nor shift the reading.
func (l Log[T]) Each(ctx context.Context, pool *pgxpool.Pool, args []any, fn func(T) error) error {
	n := len(args)
	q := `SELECT ` + l.Cols + ` ` + l.From + ` AND ` + l.ID + ` < $` + strconv.Itoa(n+1) +
		` ORDER BY ` + l.ID + ` DESC LIMIT $` + strconv.Itoa(n+2)
	chunk := l.Chunk
	if chunk <= 0 {
		chunk = LogChunk
	}
	after := int64(math.MaxInt64)
	for {
		rows, err := pool.Query(ctx, q, append(args[:n:n], after, chunk)...)
		if err != nil {
			return fmt.Errorf("read %s: %w", l.What, err)
		}
		got, err := pgx.CollectRows(rows, l.Scan)
		if err != nil {
			return fmt.Errorf("read %s: %w", l.What, err)
		}
		for _, r := range got {
			if err := fn(r); err != nil {
				return err
			}
		}
		if len(got) < chunk {
			return nil
		}
		after = l.IDOf(got[len(got)-1])
	}
}
