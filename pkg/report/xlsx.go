package report

import (
	"archive/zip"
	"context"
	"fmt"
	"io"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/xuri/excelize/v2"
)

// exportChunk is how many recipients one keyset step of the export reads.
const exportChunk = 5000

// sheetRows is the row capacity of one sheet (header included); a larger send
// continues on further sheets. A variable so tests can lower it.
var sheetRows = excelize.TotalRows

// xlsxHeader is the header row of the recipients file.
var xlsxHeader = []any{"شماره موبایل", "اپراتور", "تعداد بخش", "وضعیت", "زمان به‌روزرسانی"}

// StatusWords are the Persian names of the public recipient statuses.
var StatusWords = [...]string{
	StatusSent:        "ارسال شده",
	StatusTelecom:     "رسیده به مخابرات",
	StatusDelivered:   "رسیده به گوشی",
	StatusUndelivered: "نرسیده به گوشی",
	StatusBlacklisted: "لیست سیاه",
}

// XLSXContentType is the media type of the recipients file.
const XLSXContentType = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"

// WriteRecipientsXLSX writes an Excel file of every recipient of the account's send
// to w: mobile (a text cell), operator, parts, status in Persian and the update time
// in Tehran. Rows are read in chunks by keyset and written through excelize's stream
// writer, which spills to a temporary file, and the archive is zipped straight into
// w, so memory stays flat however many recipients the send has. Nothing is written
// to w when the send is not found or a read fails.
func (s *Service) WriteRecipientsXLSX(ctx context.Context, accountID, sendID int64, w io.Writer) error {
	if err := s.owned(ctx, accountID, sendID); err != nil {
		return err
	}
	operators, err := s.operatorNames(ctx)
	if err != nil {
		return err
	}
	f := excelize.NewFile()
	defer f.Close()
	x, err := newRecipientSheets(f)
	if err != nil {
		return err
	}
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
			row[0], row[1], row[2], row[3] = r.Mobile, op, r.Parts, statusWord(r.Status)
			row[4] = excelize.Cell{StyleID: x.timeStyle, Value: r.UpdatedAt.Truncate(time.Second).In(tehran)}
			if err := x.add(row); err != nil {
				return err
			}
		}
		if len(chunk) < exportChunk {
			break
		}
		last := chunk[len(chunk)-1]
		batch, after = last.batch, last.id
	}
	if err := x.sw.Flush(); err != nil {
		return fmt.Errorf("flush sheet: %w", err)
	}
	// Zip into w itself: excelize would otherwise build the whole archive in memory.
	f.SetZipWriter(func(io.Writer) excelize.ZipWriter { return zip.NewWriter(w) })
	if err := f.Write(w); err != nil {
		return fmt.Errorf("write xlsx: %w", err)
	}
	return nil
}

// recipientSheets writes rows across as many sheets as the recipients need.
type recipientSheets struct {
	f         *excelize.File
	sw        *excelize.StreamWriter
	sheets    int
	next      int // the next row of the current sheet
	timeStyle int
}

func newRecipientSheets(f *excelize.File) (*recipientSheets, error) {
	timeFmt := "yyyy-mm-dd hh:mm:ss"
	style, err := f.NewStyle(&excelize.Style{CustomNumFmt: &timeFmt})
	if err != nil {
		return nil, fmt.Errorf("xlsx style: %w", err)
	}
	x := &recipientSheets{f: f, timeStyle: style}
	if err := x.newSheet(); err != nil {
		return nil, err
	}
	return x, nil
}

func (x *recipientSheets) newSheet() error {
	x.sheets++
	name := "گیرندگان"
	if x.sheets == 1 {
		if err := x.f.SetSheetName("Sheet1", name); err != nil {
			return fmt.Errorf("xlsx sheet: %w", err)
		}
	} else {
		if err := x.sw.Flush(); err != nil {
			return fmt.Errorf("flush sheet: %w", err)
		}
		name = fmt.Sprintf("%s %d", name, x.sheets)
		if _, err := x.f.NewSheet(name); err != nil {
			return fmt.Errorf("xlsx sheet: %w", err)
		}
	}
	rtl := true
	if err := x.f.SetSheetView(name, 0, &excelize.ViewOptions{RightToLeft: &rtl}); err != nil {
		return fmt.Errorf("xlsx view: %w", err)
	}
	sw, err := x.f.NewStreamWriter(name)
	if err != nil {
		return fmt.Errorf("xlsx stream: %w", err)
	}
	x.sw = sw
	for col, width := range []float64{18, 14, 12, 20, 22} {
		if err := sw.SetColWidth(col+1, col+1, width); err != nil {
			return fmt.Errorf("xlsx width: %w", err)
		}
	}
	if err := sw.SetPanes(&excelize.Panes{Freeze: true, YSplit: 1, TopLeftCell: "A2", ActivePane: "bottomLeft"}); err != nil {
		return fmt.Errorf("xlsx panes: %w", err)
	}
	if err := sw.SetRow("A1", xlsxHeader); err != nil {
		return fmt.Errorf("xlsx header: %w", err)
	}
	x.next = 2
	return nil
}

// add writes one recipient row, starting a new sheet when this one is full.
func (x *recipientSheets) add(row []any) error {
	if x.next > sheetRows {
		if err := x.newSheet(); err != nil {
			return err
		}
	}
	cell, err := excelize.CoordinatesToCellName(1, x.next)
	if err != nil {
		return fmt.Errorf("xlsx cell: %w", err)
	}
	if err := x.sw.SetRow(cell, row); err != nil {
		return fmt.Errorf("xlsx row: %w", err)
	}
	x.next++
	return nil
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
