package upload

import (
	"context"
	"fmt"
	"io"

	"github.com/jackc/pgx/v5"

	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/spreadsheet"
)

// errorChunk is how many row errors one keyset step of the download reads.
const errorChunk = 5000

// WriteErrorsXLSX writes every row error of the account's file to w as xlsx: the row
// in the sheet, the cell's value (a text cell) and the Persian error. Rows are read
// by keyset and streamed through a spreadsheet.Book, so memory stays flat. Nothing is
// written to w when the file is not found.
func (s *Service) WriteErrorsXLSX(ctx context.Context, accountID, fileID int64, w io.Writer) error {
	if _, err := s.get(ctx, accountID, fileID); err != nil {
		return err
	}
	b, err := spreadsheet.New("خطاها", []any{"ردیف", "مقدار", "خطا"}, []float64{10, 24, 24})
	if err != nil {
		return err
	}
	defer b.Close()
	after := -1
	for {
		rows, err := s.pool.Query(ctx, `SELECT row_no, kind, value FROM file_row_errors WHERE file_id = $1 AND row_no > $2
			ORDER BY row_no LIMIT $3`, fileID, after, errorChunk)
		if err != nil {
			return fmt.Errorf("read row errors: %w", err)
		}
		var no int
		var kind Kind
		var value string
		n := 0
		_, err = pgx.ForEachRow(rows, []any{&no, &kind, &value}, func() error {
			after, n = no, n+1
			return b.Add([]any{no, value, kind.Message()})
		})
		if err != nil {
			return fmt.Errorf("errors xlsx: %w", err)
		}
		if n < errorChunk {
			break
		}
	}
	return b.Finish(w)
}

// samples are the sample files: a header and a few rows, every cell text so that
// spreadsheet programs keep the leading zero.
var samples = map[string][][]any{
	PurposeSend: {
		{"شماره موبایل"},
		{"09121234567"}, {"09351234567"}, {"09201234567"},
	},
	PurposePeerToPeer: {
		{"شماره موبایل", "متن پیام"},
		{"09121234567", "سلام علی عزیز، سفارش شما ارسال شد."},
		{"09351234567", "سلام مریم عزیز، سفارش شما آماده تحویل است."},
	},
	PurposeKeyword: {
		{"شماره موبایل", "نام", "مبلغ"},
		{"09121234567", "علی", "۲۵۰٬۰۰۰"},
		{"09351234567", "مریم", "۱۲۰٬۰۰۰"},
	},
	PurposeContacts: {
		{"شماره موبایل", "نام", "نام خانوادگی"},
		{"09121234567", "علی", "رضایی"},
		{"09351234567", "مریم", "احمدی"},
	},
}

// WriteSample writes the sample xlsx of a purpose (send, peer_to_peer, keyword or
// contacts); another purpose is not found.
func WriteSample(purpose string, w io.Writer) error {
	rows, ok := samples[purpose]
	if !ok {
		return apperr.ErrNotFound
	}
	widths := make([]float64, len(rows[0]))
	for i := range widths {
		widths[i] = 18
	}
	if purpose == PurposePeerToPeer {
		widths[1] = 48
	}
	b, err := spreadsheet.New("نمونه", rows[0], widths)
	if err != nil {
		return err
	}
	defer b.Close()
	for _, row := range rows[1:] {
		if err := b.Add(row); err != nil {
			return err
		}
	}
	return b.Finish(w)
}
