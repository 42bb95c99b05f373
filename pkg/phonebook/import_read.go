package phonebook

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
)

// readResult is a chunk read ahead (size 0 after the last row).
type readResult struct {
	chunk sortedChunk
	err   error
}

// readAhead reads the chunk after row after and sorts it, in its own goroutine.
func (s *Service) readAhead(ctx context.Context, fileID int64, after int, p *importPlan) <-chan readResult {
	out := make(chan readResult, 1)
	go func() {
		chunk, err := s.fileRows(ctx, fileID, after)
		if err != nil || len(chunk) == 0 {
			out <- readResult{err: err}
			return
		}
		out <- readResult{chunk: p.sortChunk(chunk)}
	}()
	return out
}

// fileRow is one valid row of a parsed file.
type fileRow struct {
	row    int
	mobile string
	cells  []string
}

// fileRows reads the next chunk of a file's rows after row_no.
func (s *Service) fileRows(ctx context.Context, fileID int64, after int) ([]fileRow, error) {
	rows, err := s.pool.Query(ctx, `SELECT row_no, mobile, cells FROM file_rows WHERE file_id = $1 AND row_no > $2
		ORDER BY row_no LIMIT $3`, fileID, after, s.chunkRows)
	if err != nil {
		return nil, fmt.Errorf("read file rows: %w", err)
	}
	out := make([]fileRow, 0, s.chunkRows)
	var r fileRow
	_, err = pgx.ForEachRow(rows, []any{&r.row, &r.mobile, &r.cells}, func() error {
		out = append(out, r)
		r.cells = nil
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read file rows: %w", err)
	}
	return out, nil
}
