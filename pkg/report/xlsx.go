package report

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/chapar/chapar/pkg/persian"
	"github.com/chapar/chapar/pkg/spreadsheet"
	"github.com/chapar/chapar/pkg/validate"
)

// exportChunk is how many recipients one keyset step of the export reads.
const exportChunk = 5000

// XLSXHeader is the header row of the recipients file.
var XLSXHeader = []any{"شناسه ارسال", "تاریخ ارسال (شمسی)", "متن پیام", "شماره موبایل", "اپراتور", "تعداد بخش",
	"وضعیت", "شناسه پیام اپراتور", "زمان تحویل (شمسی)", "آخرین تغییر (شمسی)", "علت نرسیدن"}

var xlsxWidths = []float64{12, 18, 40, 16, 14, 10, 18, 24, 18, 18, 40}

// StatusWords are the Persian names of the public recipient statuses.
var StatusWords = [...]string{
	StatusSent:        "ارسال شده",
	StatusTelecom:     "رسیده به مخابرات",
	StatusDelivered:   "رسیده به گوشی",
	StatusUndelivered: "نرسیده به گوشی",
	StatusBlacklisted: "لیست سیاه",
}

// exportRow is one recipient of the export with what only the file shows.
type exportRow struct {
	Recipient
	text   string
	doneAt *time.Time
	msgIDs []string
}

// exportSend is the send the file is of.
type exportSend struct {
	id        int64
	text      string
	createdAt time.Time
}

// WriteRecipientsXLSX writes an Excel file of every recipient of the account's send
// to w, one row each: the send's id and Jalali date, the recipient's text, the
// mobile as 09… (a text cell), operator, parts, status in Persian, the carrier's
// message ids, the Jalali time it reached the handset, the last change and the
// Persian reason it did not (ReasonText). Rows are read in chunks by keyset and
// streamed through a spreadsheet.Book (further sheets when one is full), so memory
// stays flat however many recipients the send has. Nothing is written to w when
// the send is not found or a read fails.
func (s *Service) WriteRecipientsXLSX(ctx context.Context, accountID, sendID int64, w io.Writer) error {
	if err := s.owned(ctx, accountID, sendID); err != nil {
		return err
	}
	snd := exportSend{id: sendID}
	if err := s.pool.QueryRow(ctx, qExportSend, sendID).Scan(&snd.text, &snd.createdAt); err != nil {
		return fmt.Errorf("read send: %w", err)
	}
	operators, err := s.operatorNames(ctx)
	if err != nil {
		return err
	}
	b, err := spreadsheet.New("گیرندگان", XLSXHeader, xlsxWidths)
	if err != nil {
		return err
	}
	defer b.Close()
	if err := s.exportRows(ctx, b, snd, operators); err != nil {
		return err
	}
	return b.Finish(w)
}

// exportRows adds every recipient of the send to b, chunk by chunk.
func (s *Service) exportRows(ctx context.Context, b *spreadsheet.Book, snd exportSend, operators map[string]string) error {
	var (
		batch int32 = -1 << 31
		after int64
		row   = make([]any, len(XLSXHeader))
		chunk = make([]exportRow, 0, exportChunk)
		err   error
	)
	for {
		if chunk, err = s.exportAfter(ctx, snd.id, batch, after, chunk[:0]); err != nil {
			return err
		}
		for i := range chunk {
			fillExportRow(row, snd, &chunk[i], operators)
			if err := b.Add(row); err != nil {
				return err
			}
		}
		if len(chunk) < exportChunk {
			return nil
		}
		last := chunk[len(chunk)-1]
		batch, after = last.batch, last.id
	}
}

// fillExportRow writes one recipient into row, in XLSXHeader's order.
func fillExportRow(row []any, snd exportSend, r *exportRow, operators map[string]string) {
	op := operators[r.Operator]
	if op == "" {
		op = r.Operator
	}
	text := r.text
	if text == "" {
		text = snd.text
	}
	delivered := ""
	if r.Status == StatusDelivered && r.doneAt != nil {
		delivered = persian.JalaliDateTime(*r.doneAt)
	}
	row[0], row[1], row[2] = snd.id, persian.JalaliDateTime(snd.createdAt), text
	row[3], row[4], row[5], row[6] = validate.LocalMobile(r.Mobile), op, r.Parts, statusWord(r.Status)
	row[7], row[8], row[9], row[10] = strings.Join(r.msgIDs, "، "), delivered, persian.JalaliDateTime(r.UpdatedAt), r.Reason
}

// exportAfter reads the next chunk of a send's recipients after (batch, id).
func (s *Service) exportAfter(ctx context.Context, sendID int64, batch int32, id int64, buf []exportRow) ([]exportRow, error) {
	rows, err := s.pool.Query(ctx, qExportAfter, sendID, batch, id, exportChunk)
	if err != nil {
		return nil, fmt.Errorf("read recipients: %w", err)
	}
	out, err := pgx.AppendRows(buf, rows, scanExportRow)
	if err != nil {
		return nil, fmt.Errorf("read recipients: %w", err)
	}
	return out, nil
}

// scanExportRow scans a row of qExportAfter.
func scanExportRow(row pgx.CollectableRow) (exportRow, error) {
	var (
		r             exportRow
		parts, stored int16
	)
	if err := row.Scan(&r.batch, &r.id, &r.Mobile, &r.Operator, &parts, &stored, &r.Error, &r.UpdatedAt,
		&r.text, &r.doneAt, &r.msgIDs); err != nil {
		return exportRow{}, err
	}
	r.Parts = int(parts)
	r.Status, r.Pending, r.Rejected = PublicStatus(int(stored))
	r.Reason = recipientReason(r.Recipient)
	return r, nil
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
