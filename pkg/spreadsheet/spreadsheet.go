// Package spreadsheet writes the panel's Excel downloads: right-to-left sheets with
// set column widths and a frozen header row, streamed through excelize's stream
// writer (which spills to a temporary file) and zipped straight into the output, so
// memory stays flat however many rows there are. A sheet that is full continues on
// further sheets ("title 2", "title 3", …).
package spreadsheet

import (
	"archive/zip"
	"fmt"
	"io"
	"time"

	"github.com/xuri/excelize/v2"

	"github.com/chapar/chapar/pkg/persian"
)

// ContentType is the media type of an xlsx file.
const ContentType = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"

// sheetRows is the row capacity of one sheet (header included); more rows continue
// on further sheets. A variable so tests can lower it.
var sheetRows = excelize.TotalRows

// tehran is the wall clock of the time cells.
var tehran = persian.Tehran

// Book streams rows into the sheets of one Excel file. Nothing reaches the output
// before Finish; Close releases the temporary files whatever happened.
type Book struct {
	f           *excelize.File
	sw          *excelize.StreamWriter
	title       string
	header      []any
	widths      []float64
	sheets      int
	next        int // the next row of the current sheet
	timeStyle   int
	minuteStyle int
}

// New starts a book whose sheets are named after title, each beginning with the
// header row and with the column widths (in characters) of widths.
func New(title string, header []any, widths []float64) (*Book, error) {
	b := &Book{f: excelize.NewFile(), title: title, header: header, widths: widths}
	var err error
	if b.timeStyle, err = b.numFmt("yyyy-mm-dd hh:mm:ss"); err == nil {
		if b.minuteStyle, err = b.numFmt("yyyy-mm-dd hh:mm"); err == nil {
			err = b.newSheet()
		}
	}
	if err != nil {
		b.Close()
		return nil, err
	}
	return b, nil
}

func (b *Book) numFmt(format string) (int, error) {
	style, err := b.f.NewStyle(&excelize.Style{CustomNumFmt: &format})
	if err != nil {
		return 0, fmt.Errorf("xlsx style: %w", err)
	}
	return style, nil
}

func (b *Book) newSheet() error {
	b.sheets++
	name := b.title
	if b.sheets == 1 {
		if err := b.f.SetSheetName("Sheet1", name); err != nil {
			return fmt.Errorf("xlsx sheet: %w", err)
		}
	} else {
		if err := b.sw.Flush(); err != nil {
			return fmt.Errorf("flush sheet: %w", err)
		}
		name = fmt.Sprintf("%s %d", name, b.sheets)
		if _, err := b.f.NewSheet(name); err != nil {
			return fmt.Errorf("xlsx sheet: %w", err)
		}
	}
	rtl := true
	if err := b.f.SetSheetView(name, 0, &excelize.ViewOptions{RightToLeft: &rtl}); err != nil {
		return fmt.Errorf("xlsx view: %w", err)
	}
	sw, err := b.f.NewStreamWriter(name)
	if err != nil {
		return fmt.Errorf("xlsx stream: %w", err)
	}
	b.sw = sw
	for i, w := range b.widths {
		if err := sw.SetColWidth(i+1, i+1, w); err != nil {
			return fmt.Errorf("xlsx width: %w", err)
		}
	}
	if err := sw.SetPanes(&excelize.Panes{Freeze: true, YSplit: 1, TopLeftCell: "A2", ActivePane: "bottomLeft"}); err != nil {
		return fmt.Errorf("xlsx panes: %w", err)
	}
	if err := sw.SetRow("A1", b.header); err != nil {
		return fmt.Errorf("xlsx header: %w", err)
	}
	b.next = 2
	return nil
}

// Add writes a row, starting a new sheet when this one is full. A string is a text
// cell (a leading zero stays); row may be reused once Add returns.
func (b *Book) Add(row []any) error {
	if b.next > sheetRows {
		if err := b.newSheet(); err != nil {
			return err
		}
	}
	cell, err := excelize.CoordinatesToCellName(1, b.next)
	if err != nil {
		return fmt.Errorf("xlsx cell: %w", err)
	}
	if err := b.sw.SetRow(cell, row); err != nil {
		return fmt.Errorf("xlsx row: %w", err)
	}
	b.next++
	return nil
}

// Time is a date-time cell in Tehran shown to the second (yyyy-mm-dd hh:mm:ss).
func (b *Book) Time(t time.Time) excelize.Cell {
	return excelize.Cell{StyleID: b.timeStyle, Value: t.Truncate(time.Second).In(tehran)}
}

// Minute is a date-time cell in Tehran shown to the minute (yyyy-mm-dd hh:mm).
func (b *Book) Minute(t time.Time) excelize.Cell {
	return excelize.Cell{StyleID: b.minuteStyle, Value: t.Truncate(time.Second).In(tehran)}
}

// Finish writes the file to w, zipping into w itself: excelize would otherwise build
// the whole archive in memory.
func (b *Book) Finish(w io.Writer) error {
	if err := b.sw.Flush(); err != nil {
		return fmt.Errorf("flush sheet: %w", err)
	}
	b.f.SetZipWriter(func(io.Writer) excelize.ZipWriter { return zip.NewWriter(w) })
	if err := b.f.Write(w); err != nil {
		return fmt.Errorf("write xlsx: %w", err)
	}
	return nil
}

// Close removes the book's temporary files.
func (b *Book) Close() error {
	return b.f.Close()
}

// Write builds one book (title, header, widths as New takes them), lets fill add its
// rows, and writes the file to w; nothing reaches w when fill fails, and the
// temporary files are removed either way.
func Write(w io.Writer, title string, header []any, widths []float64, fill func(*Book) error) error {
	b, err := New(title, header, widths)
	if err != nil {
		return err
	}
	defer b.Close()
	if err := fill(b); err != nil {
		return err
	}
	return b.Finish(w)
}
