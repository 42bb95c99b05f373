package transactions

import (
	"context"
	"fmt"
	"io"
	"math"

	"github.com/jackc/pgx/v5"

	"github.com/chapar/chapar/pkg/persian"
	"github.com/chapar/chapar/pkg/spreadsheet"
)

// exportChunk is how many rows one keyset step of the export reads.
const exportChunk = 2000

var xlsxHeader = []any{"شناسه", "تاریخ (شمسی)", "زمان", "نوع", "عنوان", "مبلغ (ریال)", "موجودی پس از تراکنش (ریال)",
	"شرح", "شناسه ارسال"}

// TypeTitles are the Persian names of the transaction types.
var TypeTitles = map[string]string{TypeDeposit: "واریز", TypeWithdrawal: "برداشت"}

// WriteXLSX writes every transaction of the account that f matches (paging aside),
// newest first, as an Excel file to w: the list's rows, read in chunks by keyset and
// streamed through a spreadsheet.Book. Nothing is written to w when a read fails.
func (s *Service) WriteXLSX(ctx context.Context, accountID int64, f Filter, w io.Writer) error {
	b, err := spreadsheet.New("تراکنش‌ها", xlsxHeader, []float64{12, 18, 20, 10, 26, 16, 22, 40, 12})
	if err != nil {
		return err
	}
	defer b.Close()
	after := int64(math.MaxInt64)
	for {
		rows, err := s.pool.Query(ctx, `SELECT `+rowCols+` `+where+` AND l.id < $10 ORDER BY l.id DESC LIMIT $11`,
			append(f.args(accountID), after, exportChunk)...)
		if err != nil {
			return fmt.Errorf("export transactions: %w", err)
		}
		chunk, err := pgx.CollectRows(rows, scanRow)
		if err != nil {
			return fmt.Errorf("export transactions: %w", err)
		}
		for _, r := range chunk {
			var send any
			if r.SendID != nil {
				send = *r.SendID
			}
			if err := b.Add([]any{r.ID, persian.JalaliDateTime(r.Date), b.Time(r.Date), TypeTitles[r.Type], r.KindTitle,
				r.Amount, r.BalanceAfter, r.Description, send}); err != nil {
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
