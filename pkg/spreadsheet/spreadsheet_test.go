package spreadsheet

import (
	"bytes"
	"fmt"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"
)

// finish writes b and opens the result.
func finish(t *testing.T, b *Book) *excelize.File {
	t.Helper()
	var buf bytes.Buffer
	if err := b.Finish(&buf); err != nil {
		t.Fatal(err)
	}
	f, err := excelize.OpenReader(&buf)
	if err != nil {
		t.Fatalf("not an xlsx file: %v", err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

// TestSheets lowers the rows per sheet and checks that rows spill to further sheets,
// each right-to-left with its header frozen, in order and none lost.
func TestSheets(t *testing.T) {
	old := sheetRows
	sheetRows = 11 // a header and 10 rows a sheet
	defer func() { sheetRows = old }()

	b, err := New("گیرندگان", []any{"شماره موبایل", "ردیف"}, []float64{18, 10})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	row := make([]any, 2)
	for i := 1; i <= 25; i++ {
		row[0], row[1] = fmt.Sprintf("0912%07d", i), i
		if err := b.Add(row); err != nil {
			t.Fatal(err)
		}
	}
	f := finish(t, b)
	sheets := f.GetSheetList()
	if want := []string{"گیرندگان", "گیرندگان 2", "گیرندگان 3"}; fmt.Sprint(sheets) != fmt.Sprint(want) {
		t.Fatalf("sheets %q, want %q", sheets, want)
	}
	var mobiles []string
	for i, s := range sheets {
		if v, err := f.GetSheetView(s, 0); err != nil || v.RightToLeft == nil || !*v.RightToLeft {
			t.Fatalf("sheet %s is not right-to-left: %+v %v", s, v, err)
		}
		if p, err := f.GetPanes(s); err != nil || !p.Freeze || p.YSplit != 1 || p.TopLeftCell != "A2" {
			t.Fatalf("sheet %s: the header is not frozen: %+v %v", s, p, err)
		}
		if w, err := f.GetColWidth(s, "A"); err != nil || w != 18 {
			t.Fatalf("sheet %s: column A is %v wide (%v), want 18", s, w, err)
		}
		rows, err := f.GetRows(s)
		if err != nil {
			t.Fatal(err)
		}
		if want := []int{11, 11, 6}[i]; len(rows) != want || rows[0][0] != "شماره موبایل" || rows[0][1] != "ردیف" {
			t.Fatalf("sheet %s: %d rows, want %d with a header: %v", s, len(rows), want, rows)
		}
		for _, r := range rows[1:] {
			mobiles = append(mobiles, r[0])
		}
	}
	if len(mobiles) != 25 || mobiles[0] != "09120000001" || mobiles[10] != "09120000011" || mobiles[24] != "09120000025" {
		t.Fatalf("mobiles across sheets: %d, %v", len(mobiles), mobiles)
	}
	// A string stays a text cell, leading zero and all; a number stays a number.
	if typ, _ := f.GetCellType("گیرندگان 2", "A2"); typ != excelize.CellTypeInlineString && typ != excelize.CellTypeSharedString {
		t.Fatalf("mobile cell of type %v, want a string", typ)
	}
	if typ, _ := f.GetCellType("گیرندگان 2", "B2"); typ != excelize.CellTypeUnset && typ != excelize.CellTypeNumber {
		t.Fatalf("number cell of type %v", typ)
	}
}

// TestTimes checks that time cells show Tehran's wall clock, to the second or minute.
func TestTimes(t *testing.T) {
	b, err := New("زمان", []any{"ثانیه", "دقیقه"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	at := time.Date(2024, 3, 19, 20, 45, 7, 600_000_000, time.UTC) // 00:15:07 on the 20th in Tehran (UTC+3:30)
	if err := b.Add([]any{b.Time(at), b.Minute(at)}); err != nil {
		t.Fatal(err)
	}
	rows, err := finish(t, b).GetRows("زمان")
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2 || rows[1][0] != "2024-03-20 00:15:07" || rows[1][1] != "2024-03-20 00:15" {
		t.Fatalf("time cells %q", rows)
	}
}
