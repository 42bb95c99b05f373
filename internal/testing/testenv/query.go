package testenv

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5"
)

// Scalar is the one value a query of d answers (a count, a sum); the test fails
// on an error.
func Scalar[T any](tb testing.TB, d Database, sql string, args ...any) T {
	tb.Helper()
	var v T
	if err := d.Pool.QueryRow(context.Background(), sql, args...).Scan(&v); err != nil {
		tb.Fatalf("testenv: %s: %v", sql, err)
	}
	return v
}

// Column is the one column a query of d answers, row by row; the test fails on an
// error.
func Column[T any](tb testing.TB, d Database, sql string, args ...any) []T {
	tb.Helper()
	rows, err := d.Pool.Query(context.Background(), sql, args...)
	if err != nil {
		tb.Fatalf("testenv: %s: %v", sql, err)
	}
	out, err := pgx.CollectRows(rows, pgx.RowTo[T])
	if err != nil {
		tb.Fatalf("testenv: %s: %v", sql, err)
	}
	return out
}
