package transactions

import (
	"context"
	"io"

	"github.com/chapar/chapar/pkg/persian"
	"github.com/chapar/chapar/pkg/spreadsheet"
)

var xlsxHeader = []any{"شناسه", "تاریخ (شمسی)", "زمان", "نوع", "عنوان", "مبلغ (ریال)", "موجودی پس از تراکنش (ریال)",
	"شرح", "شناسه ارسال"}

// TypeTitles are the Persian names of the transaction types.
var TypeTitles = map[string]string{TypeDeposit: "واریز", TypeWithdrawal: "برداشت"}

// WriteXLSX writes every transaction of the account that f matches (paging aside),
// newest first, as an Excel file to w; nothing is written to w when a read fails.
func (s *Service) WriteXLSX(ctx context.Context, accountID int64, f Filter, w io.Writer) error {
	widths := []float64{12, 18, 20, 10, 26, 16, 22, 40, 12}
	return spreadsheet.Write(w, "تراکنش‌ها", xlsxHeader, widths, func(b *spreadsheet.Book) error {
		return ledger.Each(ctx, s.pool, f.args(accountID), func(r Row) error {
			var send any
			if r.SendID != nil {
				send = *r.SendID
			}
			return b.Add([]any{r.ID, persian.JalaliDateTime(r.Date), b.Time(r.Date), TypeTitles[r.Type], r.KindTitle,
				r.Amount, r.BalanceAfter, r.Description, send})
		})
	})
}
