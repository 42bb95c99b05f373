package auditlog

import (
	"context"
	"fmt"
	"io"
	"math"
	"strconv"

	"github.com/jackc/pgx/v5"

	"github.com/chapar/chapar/pkg/persian"
	"github.com/chapar/chapar/pkg/spreadsheet"
)

// exportChunk is how many entries one keyset step of the export reads.
const exportChunk = 2000

var xlsxHeader = []any{"تاریخ (شمسی)", "زمان", "کاربر", "کلید API", "رویداد", "کد رویداد", "هدف",
	"پیش از تغییر", "پس از تغییر", "جزئیات", "IP", "مرورگر"}

// WriteXLSX writes every entry of the account's log that f matches (paging aside),
// newest first, as an Excel file to w. Rows are read in chunks by keyset and
// streamed through a spreadsheet.Book; nothing is written to w when a read fails.
func (s *Service) WriteXLSX(ctx context.Context, accountID int64, f Filter, w io.Writer) error {
	b, err := spreadsheet.New("گزارش فعالیت‌ها", xlsxHeader, []float64{18, 20, 20, 10, 26, 22, 16, 30, 30, 30, 16, 30})
	if err != nil {
		return err
	}
	defer b.Close()
	after := int64(math.MaxInt64)
	row := make([]any, len(xlsxHeader))
	for {
		rows, err := s.pool.Query(ctx, `SELECT `+rowCols+` `+where+` AND l.id < $6 ORDER BY l.id DESC LIMIT $7`,
			append(f.args(accountID), after, exportChunk)...)
		if err != nil {
			return fmt.Errorf("export audit log: %w", err)
		}
		chunk, err := pgx.CollectRows(rows, scanRow)
		if err != nil {
			return fmt.Errorf("export audit log: %w", err)
		}
		for i := range chunk {
			fillRow(b, row, &chunk[i])
			if err := b.Add(row); err != nil {
				return err
			}
		}
		if len(chunk) < exportChunk {
			break
		}
		after = chunk[len(chunk)-1].ID
	}
	return b.Finish(w)
}

func fillRow(b *spreadsheet.Book, row []any, r *Row) {
	key := ""
	if r.APIKeyID != nil {
		key = strconv.FormatInt(*r.APIKeyID, 10)
	}
	target := r.TargetType
	if r.Target != "" {
		target += " " + r.Target
	}
	row[0], row[1], row[2], row[3] = persian.JalaliDateTime(r.CreatedAt), b.Time(r.CreatedAt), r.UserName, key
	row[4], row[5], row[6] = r.ActionTitle, r.Action, target
	row[7], row[8], row[9], row[10], row[11] = text(r.Before), text(r.After), text(r.Details), r.IP, r.UserAgent
}

// text is a JSON summary as a cell; null and {} are empty.
func text(raw []byte) string {
	s := string(raw)
	if s == "null" || s == "{}" {
		return ""
	}
	return s
}
