package report

import (
	"context"
	"fmt"
	"io"

	"github.com/jackc/pgx/v5"

	"github.com/chapar/chapar/pkg/spreadsheet"
)

// exportChunk is how many recipients one keyset step of the export reads.
const exportChunk = 5000

// xlsxHeader is the header row of the recipients file.
var xlsxHeader = []any{"شماره موبایل", "اپراتور", "تعداد بخش", "وضعیت", "زمان به‌روزرسانی", "علت"}

// StatusWords are the Persian names of the public recipient statuses.
var StatusWords = [...]string{
	StatusSent:        "ارسال شده",
	StatusTelecom:     "رسیده به مخابرات",
	StatusDelivered:   "رسیده به گوشی",
	StatusUndelivered: "نرسیده به گوشی",
	StatusBlacklisted: "لیست سیاه",
}

// WriteRecipientsXLSX writes an Excel file of every recipient of the account's send
// to w: mobile (a text cell), operator, parts, status in Persian, the update time
// in Tehran and the reason of a recipient not sent (the carrier's error, or the
// credit that could not pay for it). Rows are read in chunks by keyset and streamed through a
// spreadsheet.Book (further sheets when one is full), so memory stays flat however
// many recipients the send has. Nothing is written to w when the send is not found
// or a read fails.
func (s *Service) WriteRecipientsXLSX(ctx context.Context, accountID, sendID int64, w io.Writer) error {
	if err := s.owned(ctx, accountID, sendID); err != nil {
		return err
	}
	operators, err := s.operatorNames(ctx)
	if err != nil {
		return err
	}
	b, err := spreadsheet.New("گیرندگان", xlsxHeader, []float64{18, 14, 12, 20, 22, 40})
	if err != nil {
		return err
	}
	defer b.Close()
	var (
		batch int32 = -1 << 31
		after int64
		row   = make([]any, len(xlsxHeader))
		chunk = make([]Recipient, 0, exportChunk)
	)
	for {
		chunk, err = s.recipientsAfter(ctx, sendID, batch, after, chunk[:0])
		if err != nil {
			return err
		}
		for i := range chunk {
			r := &chunk[i]
			op := operators[r.Operator]
			if op == "" {
				op = r.Operator
			}
			row[0], row[1], row[2], row[3], row[4], row[5] = r.Mobile, op, r.Parts, statusWord(r.Status), b.Time(r.UpdatedAt), r.Error
			if err := b.Add(row); err != nil {
				return err
			}
		}
		if len(chunk) < exportChunk {
			break
		}
		last := chunk[len(chunk)-1]
		batch, after = last.batch, last.id
	}
	return b.Finish(w)
}

// recipientsAfter reads the next chunk of a send's recipients after (batch, id).
func (s *Service) recipientsAfter(ctx context.Context, sendID int64, batch int32, id int64, buf []Recipient) ([]Recipient, error) {
	rows, err := s.pool.Query(ctx, qRecipientsAfter, sendID, batch, id, exportChunk)
	if err != nil {
		return nil, fmt.Errorf("read recipients: %w", err)
	}
	out, err := pgx.AppendRows(buf, rows, scanRecipient)
	if err != nil {
		return nil, fmt.Errorf("read recipients: %w", err)
	}
	return out, nil
}

// operatorNames maps operator codes to their Persian names.
func (s *Service) operatorNames(ctx context.Context) (map[string]string, error) {
	rows, err := s.pool.Query(ctx, qOperatorNames)
	if err != nil {
		return nil, fmt.Errorf("operator names: %w", err)
	}
	names := map[string]string{}
	var code, name string
	_, err = pgx.ForEachRow(rows, []any{&code, &name}, func() error {
		names[code] = name
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("operator names: %w", err)
	}
	return names, nil
}

// statusWord is the Persian name of a public status.
func statusWord(status int) string {
	if status >= 0 && status < len(StatusWords) {
		return StatusWords[status]
	}
	return fmt.Sprint(status)
}
