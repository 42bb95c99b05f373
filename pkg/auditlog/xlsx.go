package auditlog

import (
	"context"
	"io"
	"strconv"

	"github.com/chapar/chapar/pkg/persian"
	"github.com/chapar/chapar/pkg/spreadsheet"
)

var xlsxHeader = []any{"تاریخ (شمسی)", "زمان", "کاربر", "کلید API", "رویداد", "کد رویداد", "هدف",
	"پیش از تغییر", "پس از تغییر", "جزئیات", "IP", "مرورگر"}

// WriteXLSX writes every entry of the account's log that f matches (paging aside),
// newest first, as an Excel file to w; nothing is written to w when a read fails.
func (s *Service) WriteXLSX(ctx context.Context, accountID int64, f Filter, w io.Writer) error {
	widths := []float64{18, 20, 20, 10, 26, 22, 16, 30, 30, 30, 16, 30}
	return spreadsheet.Write(w, "گزارش فعالیت‌ها", xlsxHeader, widths, func(b *spreadsheet.Book) error {
		row := make([]any, len(xlsxHeader))
		return entries.Each(ctx, s.pool, f.args(accountID), func(r Row) error {
			fillRow(b, row, &r)
			return b.Add(row)
		})
	})
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
