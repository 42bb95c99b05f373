// Package blocklist owns the operators' advertising block lists
// (docs/sending-rules.md, «Operator block lists»): the numbers whose subscribers
// blocked advertising SMS at their operator (the *800# service), kept per operator
// as the engine stores mobiles (98912…). Staff import them from a file (COPY into a
// staging table, then one merge), search and remove them; the engine adds the
// numbers a carrier's receipt reports blocked (AddFromReceipts). Advertising sends
// leave the listed numbers out at expansion through Blocked, one set-based query
// per chunk of recipients; service sends never read the list.
package blocklist

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// Sources of a listed number.
const (
	SourceImport  = "import"  // a staff import
	SourceReceipt = "receipt" // a carrier's receipt said the number blocks advertising
)

// Querier is a pool or a transaction.
type Querier interface {
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
}

// Rows yields a file's rows (upload.OpenRows): the cells of each and its number,
// io.EOF after the last; a file that cannot be read is a field error of "file".
type Rows interface {
	Next() (cells []string, no int, err error)
	Close() error
}

// Opener opens a file on local disk, named name by its uploader, as rows.
type Opener func(path, name string) (Rows, error)

// Service manages the list for staff.
type Service struct {
	pool *pgxpool.Pool
	open Opener
}

// New returns the service; open reads the imported files (upload.OpenRows: the
// upload package's readers and bounds).
func New(pool *pgxpool.Pool, open Opener) *Service { return &Service{pool: pool, open: open} }

// Reader is what the lookups need: a pool or a transaction.
type Reader interface {
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
}

// Any reports whether any number is listed (most databases of tests and new
// installations have none: the walks then skip the list entirely).
func Any(ctx context.Context, q Reader) (bool, error) {
	rows, err := q.Query(ctx, `SELECT 1 FROM operator_blocklist LIMIT 1`)
	if err != nil {
		return false, fmt.Errorf("operator blocklist: %w", err)
	}
	listed := rows.Next()
	rows.Close()
	if err := rows.Err(); err != nil {
		return false, fmt.Errorf("operator blocklist: %w", err)
	}
	return listed, nil
}

// Gen is the list's generation: it changes whenever the list does, so a cached
// quote that read the list keys on it.
func Gen(ctx context.Context, q Querier) (int64, error) {
	var g int64
	if err := q.QueryRow(ctx, `SELECT gen FROM operator_blocklist_gen`).Scan(&g); err != nil {
		return 0, fmt.Errorf("operator blocklist generation: %w", err)
	}
	return g, nil
}

// Blocked returns which of the recipients (mobiles[i] routed to ops[i]) are on
// their operator's list: one set-based join of the chunk against the list (its
// primary key), never a query per number.
func Blocked(ctx context.Context, q Reader, mobiles, ops []string) (map[string]struct{}, error) {
	out := map[string]struct{}{}
	if len(mobiles) == 0 {
		return out, nil
	}
	rows, err := q.Query(ctx, `SELECT r.mobile FROM unnest($1::text[], $2::text[]) AS r(mobile, operator)
		WHERE EXISTS (SELECT 1 FROM operator_blocklist b WHERE b.mobile = r.mobile AND b.operator = r.operator)`, mobiles, ops)
	if err != nil {
		return nil, fmt.Errorf("operator blocklist lookup: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var m string
		if err := rows.Scan(&m); err != nil {
			return nil, fmt.Errorf("operator blocklist lookup: %w", err)
		}
		out[m] = struct{}{}
	}
	return out, rows.Err()
}

// AddFromReceipts lists the numbers carriers reported blocked (mobiles[i] at
// ops[i], already normalised) and returns how many were new.
func AddFromReceipts(ctx context.Context, q Querier, mobiles, ops []string) (int64, error) {
	if len(mobiles) == 0 {
		return 0, nil
	}
	tag, err := q.Exec(ctx, `INSERT INTO operator_blocklist (mobile, operator, source)
		SELECT DISTINCT r.mobile, r.operator, 'receipt' FROM unnest($1::text[], $2::text[]) AS r(mobile, operator)
		WHERE r.mobile ~ '^98[0-9]{10}$'
		ORDER BY 1, 2
		ON CONFLICT DO NOTHING`, mobiles, ops)
	if err != nil {
		return 0, fmt.Errorf("operator blocklist from receipts: %w", err)
	}
	if n := tag.RowsAffected(); n > 0 {
		return n, bump(ctx, q)
	}
	return 0, nil
}

// bump moves the list's generation.
func bump(ctx context.Context, q Querier) error {
	if _, err := q.Exec(ctx, `UPDATE operator_blocklist_gen SET gen = gen + 1`); err != nil {
		return fmt.Errorf("operator blocklist generation: %w", err)
	}
	return nil
}
