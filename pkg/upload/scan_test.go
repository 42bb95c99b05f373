package upload

import (
	"archive/zip"
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/unicode"
)

// scanResult is everything a scan produced.
type scanResult struct {
	rows   []Row
	errs   []RowError
	counts Counts
	sc     *scanner
}

// classifyTest stands in for the operator table: 98912 mci, 98935 irancell, else other.
func classifyTest(m string) string {
	switch {
	case strings.HasPrefix(m, "98912"):
		return "mci"
	case strings.HasPrefix(m, "98935"):
		return "irancell"
	}
	return "other"
}

// scanPath scans a file the way the worker does, without the database.
func scanPath(t testing.TB, path, purpose string, limit int) (scanResult, error) {
	t.Helper()
	src, err := openSource(path, strings.TrimPrefix(filepath.Ext(path), "."))
	if err != nil {
		return scanResult{}, err
	}
	defer src.Close()
	sc, err := newScanner(src, purpose, classifyTest)
	if err != nil {
		return scanResult{}, err
	}
	if limit > 0 {
		sc.limit = limit
	}
	var res scanResult
	res.sc = sc
	sc.onError = func(e RowError) error { res.errs = append(res.errs, e); return nil }
	for {
		r, err := sc.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return res, err
		}
		res.rows = append(res.rows, r)
	}
	res.counts = sc.counts
	return res, nil
}

func writeFile(t testing.TB, name string, data []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// writeXLSX writes sheets of rows with excelize; numbers stay numeric cells.
func writeXLSX(t testing.TB, sheets ...[][]any) string {
	t.Helper()
	f := excelize.NewFile()
	defer f.Close()
	for i, rows := range sheets {
		name := fmt.Sprintf("Sheet%d", i+1)
		if i > 0 {
			if _, err := f.NewSheet(name); err != nil {
				t.Fatal(err)
			}
		}
		for r, row := range rows {
			if row == nil {
				continue // a blank row
			}
			cell, _ := excelize.CoordinatesToCellName(1, r+1)
			if err := f.SetSheetRow(name, cell, &row); err != nil {
				t.Fatal(err)
			}
		}
	}
	p := filepath.Join(t.TempDir(), "book.xlsx")
	if err := f.SaveAs(p); err != nil {
		t.Fatal(err)
	}
	return p
}

func mobiles(rows []Row) []string {
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = r.Mobile
	}
	return out
}

func rowNos(rows []Row) []int {
	out := make([]int, len(rows))
	for i, r := range rows {
		out[i] = r.No
	}
	return out
}

func TestScanCSV(t *testing.T) {
	cases := []struct {
		name      string
		data      string
		mobileCol int
		titles    []string
		mobiles   []string
		nos       []int
		errs      []RowError
		counts    Counts
	}{{
		name:      "comma, BOM, header, Persian digits, blank lines, duplicates and errors",
		data:      "\uFEFFنام,شماره موبایل\r\nعلی,۰۹۱۲۱۲۳۴۵۶۷\r\n\r\nرضا,9351234567\r\n,,\r\nمینا,989121234567\r\nسارا,\r\nنازی,9.89121E+11\r\nپری,ندارد\r\n",
		mobileCol: 1, titles: []string{"نام", "شماره موبایل"},
		mobiles: []string{"989121234567", "989351234567"}, nos: []int{2, 4},
		errs:   []RowError{{7, KindEmpty, ""}, {8, KindFormat, "9.89121E+11"}, {9, KindOther, "ندارد"}},
		counts: Counts{Records: 6, Valid: 2, Invalid: 3, Duplicates: 1},
	}, {
		name:      "semicolon, no header, the mobile column found by its numbers",
		data:      "1;Ali;09121234567\n2;Reza;09351234567\n3;Mina;0912 000 0000\n",
		mobileCol: 2, titles: []string{"", "", ""},
		mobiles: []string{"989121234567", "989351234567", "989120000000"}, nos: []int{1, 2, 3},
		counts: Counts{Records: 3, Valid: 3},
	}, {
		name:      "tab, quoted text with the other delimiters inside",
		data:      "mobile\tnote\n09121234567\t\"a, b; c\"\n09351234567\tx\n",
		mobileCol: 0, titles: []string{"mobile", "note"},
		mobiles: []string{"989121234567", "989351234567"}, nos: []int{2, 3},
		counts: Counts{Records: 2, Valid: 2},
	}, {
		name:      "a title over row numbers does not win over the numbers",
		data:      "شماره,تلفن همراه کاربر\n1,09121234567\n2,09351234567\n",
		mobileCol: 1, titles: []string{"شماره", "تلفن همراه کاربر"},
		mobiles: []string{"989121234567", "989351234567"}, nos: []int{2, 3},
		counts: Counts{Records: 2, Valid: 2},
	}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res, err := scanPath(t, writeFile(t, "f.csv", []byte(c.data)), PurposeSend, 0)
			if err != nil {
				t.Fatal(err)
			}
			if res.sc.mobileCol != c.mobileCol {
				t.Errorf("mobile column %d, want %d", res.sc.mobileCol, c.mobileCol)
			}
			var titles []string
			for _, col := range res.sc.Columns() {
				titles = append(titles, col.Title)
			}
			if !reflect.DeepEqual(titles, c.titles) {
				t.Errorf("titles %q, want %q", titles, c.titles)
			}
			if got := mobiles(res.rows); !reflect.DeepEqual(got, c.mobiles) {
				t.Errorf("mobiles %v, want %v", got, c.mobiles)
			}
			if got := rowNos(res.rows); !reflect.DeepEqual(got, c.nos) {
				t.Errorf("row numbers %v, want %v", got, c.nos)
			}
			if !reflect.DeepEqual(res.errs, c.errs) && (len(res.errs) > 0 || len(c.errs) > 0) {
				t.Errorf("errors %+v, want %+v", res.errs, c.errs)
			}
			if res.counts != c.counts {
				t.Errorf("counts %+v, want %+v", res.counts, c.counts)
			}
		})
	}
}

func TestScanTextEncodings(t *testing.T) {
	win, err := charmap.Windows1256.NewEncoder().String("نام,موبايل\nعلي,09121234567\n") // Arabic yeh: 1256 has no Persian one
	if err != nil {
		t.Fatal(err)
	}
	utf16, err := unicode.UTF16(unicode.LittleEndian, unicode.UseBOM).NewEncoder().String("موبایل\tنام\n09351234567\tرضا\n")
	if err != nil {
		t.Fatal(err)
	}
	for name, c := range map[string]struct {
		file, data, title, cell string
	}{
		"windows-1256": {"f.csv", win, "موبايل", "علي"},
		"utf-16":       {"f.csv", utf16, "موبایل", "رضا"},
	} {
		t.Run(name, func(t *testing.T) {
			res, err := scanPath(t, writeFile(t, c.file, []byte(c.data)), PurposeSend, 0)
			if err != nil {
				t.Fatal(err)
			}
			if len(res.rows) != 1 || res.sc.Columns()[res.sc.mobileCol].Title != c.title ||
				!reflect.DeepEqual(res.rows[0].Cells[1-res.sc.mobileCol], c.cell) {
				t.Fatalf("rows %+v columns %+v", res.rows, res.sc.Columns())
			}
		})
	}
}

func TestScanTXT(t *testing.T) {
	res, err := scanPath(t, writeFile(t, "n.txt", []byte("09121234567\r\n\r\n  9351234567 \n۰۹۱۲۱۲۳۴۵۶۷\nabc\n")), PurposeSend, 0)
	if err != nil {
		t.Fatal(err)
	}
	if got := mobiles(res.rows); !reflect.DeepEqual(got, []string{"989121234567", "989351234567"}) {
		t.Fatalf("mobiles %v", got)
	}
	if !reflect.DeepEqual(rowNos(res.rows), []int{1, 3}) || res.counts != (Counts{Records: 4, Valid: 2, Invalid: 1, Duplicates: 1}) {
		t.Fatalf("rows %v counts %+v", rowNos(res.rows), res.counts)
	}
	if !reflect.DeepEqual(res.errs, []RowError{{5, KindOther, "abc"}}) {
		t.Fatalf("errors %+v", res.errs)
	}
}

func TestScanXLSX(t *testing.T) {
	p := writeXLSX(t, [][]any{
		{"ردیف", "Mobile", "نام"},
		{1, 9121234567, "عدد بدون صفر"},
		{2, 989351234567, "عدد با ۹۸"},
		nil, // a blank row
		{3, 9.201234567e9, "عدد اعشاری"},
		{4, "۰۹۱۲۷۷۷۶۶۵۵", "ارقام فارسی"},
		{5, "9.89121E+11", "نماد علمی بی‌رقم"},
		{6, 989121234567.0, "تکراری"},
		{7, nil, "خالی"},
		{},
	}, [][]any{
		// The second sheet is never read.
		{"09129999999"}, {"09128888888"},
	})
	res, err := scanPath(t, p, PurposeSend, 0)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"989121234567", "989351234567", "989201234567", "989127776655"}
	if got := mobiles(res.rows); !reflect.DeepEqual(got, want) {
		t.Fatalf("mobiles %v, want %v", got, want)
	}
	if got := rowNos(res.rows); !reflect.DeepEqual(got, []int{2, 3, 5, 6}) {
		t.Fatalf("row numbers %v", got)
	}
	if !reflect.DeepEqual(res.errs, []RowError{{7, KindFormat, "9.89121E+11"}, {9, KindEmpty, ""}}) {
		t.Fatalf("errors %+v", res.errs)
	}
	if res.counts != (Counts{Records: 7, Valid: 4, Invalid: 2, Duplicates: 1}) {
		t.Fatalf("counts %+v", res.counts)
	}
	if res.sc.mobileCol != 1 || len(res.sc.Columns()) != 3 || res.sc.Columns()[2] != (Column{2, "C", "نام"}) {
		t.Fatalf("columns %+v mobile %d", res.sc.Columns(), res.sc.mobileCol)
	}
	// Every cell is kept as text, the raw value of numeric cells.
	if got := res.rows[0].Cells; !reflect.DeepEqual(got, []string{"1", "9121234567", "عدد بدون صفر"}) {
		t.Fatalf("cells %q", got)
	}
	if op := res.sc.perOp; op["mci"].Recipients != 2 || op["irancell"].Recipients != 1 || op["other"].Recipients != 1 {
		t.Fatalf("per operator %+v %+v %+v", op["mci"], op["irancell"], op["other"])
	}
}

// TestScanLibreOffice reads xlsx files made by LibreOffice from the csv beside them
// (testdata/README.md): numeric cells with the leading 0 lost, 98-prefixed numerics,
// shared strings, a missing blank row.
func TestScanLibreOffice(t *testing.T) {
	res, err := scanPath(t, "testdata/libreoffice-numbers.xlsx", PurposeSend, 0)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"989121234567", "989351234567", "989201234567", "989127776655"}
	if got := mobiles(res.rows); !reflect.DeepEqual(got, want) {
		t.Fatalf("mobiles %v, want %v", got, want)
	}
	if got := rowNos(res.rows); !reflect.DeepEqual(got, []int{2, 3, 4, 5}) {
		t.Fatalf("row numbers %v", got)
	}
	if !reflect.DeepEqual(res.errs, []RowError{{8, KindFormat, "021-88776655"}, {9, KindEmpty, ""}}) {
		t.Fatalf("errors %+v", res.errs)
	}
	if res.counts != (Counts{Records: 7, Valid: 4, Invalid: 2, Duplicates: 1}) {
		t.Fatalf("counts %+v", res.counts)
	}
	cols := res.sc.Columns()
	if res.sc.mobileCol != 1 || len(cols) != 3 || cols[1].Title != "شماره موبایل" || cols[2].Title != "مبلغ" {
		t.Fatalf("columns %+v mobile %d", cols, res.sc.mobileCol)
	}
	if got := res.rows[0].Cells; !reflect.DeepEqual(got, []string{"علی", "9121234567", "250000"}) {
		t.Fatalf("cells %q", got)
	}
	zr, err := zip.OpenReader("testdata/libreoffice-numbers.xlsx")
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	if est := estimateSheetRows(&zr.Reader); est != 9 {
		t.Fatalf("estimated rows %d, want the dimension's 9", est)
	}

	res, err = scanPath(t, "testdata/libreoffice-noheader.xlsx", PurposePeerToPeer, 0)
	if err != nil {
		t.Fatal(err)
	}
	if res.sc.header != nil || res.sc.mobileCol != 1 || res.sc.textCol != 2 {
		t.Fatalf("header %q mobile %d text %d", res.sc.header, res.sc.mobileCol, res.sc.textCol)
	}
	want = []string{"989121111111", "989352222222", "989201234567", "989121111111"}
	if got := mobiles(res.rows); !reflect.DeepEqual(got, want) || res.counts != (Counts{Records: 4, Valid: 4}) {
		t.Fatalf("mobiles %v counts %+v", got, res.counts)
	}
}

func TestScanPeerToPeer(t *testing.T) {
	long := strings.Repeat("ا", 2701)
	p := writeXLSX(t, [][]any{
		{"متن پیام", "شماره موبایل"},
		{"سلام", "09121234567"},
		{"سلام", "09121234567"}, // duplicate pair
		{"خداحافظ", "09121234567"},
		{"", "09351234567"},
		{long, "09351234567"},
		{strings.Repeat("a", 161), "09351234567"},
	})
	res, err := scanPath(t, p, PurposePeerToPeer, 0)
	if err != nil {
		t.Fatal(err)
	}
	if res.sc.mobileCol != 1 || res.sc.textCol != 0 {
		t.Fatalf("columns mobile %d text %d", res.sc.mobileCol, res.sc.textCol)
	}
	if res.counts != (Counts{Records: 6, Valid: 3, Invalid: 2, Duplicates: 1}) {
		t.Fatalf("counts %+v", res.counts)
	}
	if !reflect.DeepEqual(res.errs, []RowError{{5, KindEmpty, "09351234567"}, {6, KindOther, "09351234567"}}) {
		t.Fatalf("errors %+v", res.errs)
	}
	// «سلام» and «خداحافظ» are one UCS-2 part each, with the footer too; 161 Latin
	// letters are two GSM-7 parts, and with the Persian footer 167 UCS-2 characters
	// in three.
	mci, ir := res.sc.perOp["mci"], res.sc.perOp["irancell"]
	if *mci != (OperatorCount{"mci", 2, 2, 2}) || *ir != (OperatorCount{"irancell", 1, 2, 3}) {
		t.Fatalf("per operator %+v %+v", *mci, *ir)
	}
	// Without titles, the message column is the other filled one.
	p = writeXLSX(t, [][]any{{9121234567, "پیام یک"}, {9351234567, "پیام دو"}})
	res, err = scanPath(t, p, PurposePeerToPeer, 0)
	if err != nil || res.sc.textCol != 1 || res.counts.Valid != 2 {
		t.Fatalf("no header: %v text %d %+v", err, res.sc.textCol, res.counts)
	}
}

func TestScanFileErrors(t *testing.T) {
	cases := []struct {
		name, file, data, purpose string
		want                      error
	}{
		{"empty csv", "e.csv", "", PurposeSend, ErrEmpty},
		{"blank lines only", "e.txt", "\n  \n\r\n", PurposeSend, ErrEmpty},
		{"a header only", "h.csv", "نام,موبایل\n", PurposeSend, ErrEmpty},
		{"not a spreadsheet", "x.xlsx", "this is not a zip", PurposeSend, ErrFormat},
		{"no mobile column", "n.csv", "نام,شهر\nعلی,تهران\nرضا,شیراز\n", PurposeSend, ErrNoMobileCol},
		{"peer-to-peer with one column", "p.csv", "09121234567\n09351234567\n", PurposePeerToPeer, ErrPeerToPeer},
		{"peer-to-peer without numbers", "p.csv", "a,b\nc,d\n", PurposePeerToPeer, ErrPeerToPeer},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := scanPath(t, writeFile(t, c.file, []byte(c.data)), c.purpose, 0)
			if !errors.Is(err, c.want) {
				t.Fatalf("error %v, want %v", err, c.want)
			}
		})
	}
	// A one-column file of garbage is its mobile column: row errors, no valid number.
	res, err := scanPath(t, writeFile(t, "g.txt", []byte("123\nabc\n")), PurposeSend, 0)
	if err != nil || res.counts != (Counts{Records: 2, Invalid: 2}) {
		t.Fatalf("garbage: %v %+v", err, res.counts)
	}
}

// writeNumbersCSV writes a csv of n distinct numbers over the three operators, with
// a name and a city, the header in Persian.
func writeNumbersCSV(t testing.TB, n int) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "bench.csv")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	w.WriteString("نام,شماره موبایل,شهر\n")
	for i := range n {
		fmt.Fprintf(w, "مشترک %d,%s,تهران\n", i, benchNumber(i))
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestRecordLimit(t *testing.T) {
	if testing.Short() {
		t.Skip("a million rows")
	}
	res, err := scanPath(t, writeNumbersCSV(t, MaxRecords), PurposeSend, 0)
	if err != nil || res.counts.Records != MaxRecords || res.counts.Valid != MaxRecords {
		t.Fatalf("a million rows: %v %+v", err, res.counts)
	}
	res, err = scanPath(t, writeNumbersCSV(t, MaxRecords+1), PurposeSend, 0)
	if !errors.Is(err, ErrTooManyRows) || res.sc.counts.Records != MaxRecords+1 {
		t.Fatalf("a million and one rows: %v %+v", err, res.sc.counts)
	}
	// The xlsx reader stops the same way (a lower limit keeps the file small).
	rows := [][]any{{"موبایل"}}
	for i := range 101 {
		rows = append(rows, []any{9120000000 + i})
	}
	_, err = scanPath(t, writeXLSX(t, rows), PurposeSend, 100)
	if !errors.Is(err, ErrTooManyRows) {
		t.Fatalf("xlsx over the limit: %v", err)
	}
	if _, err = scanPath(t, writeXLSX(t, rows[:101]), PurposeSend, 100); err != nil {
		t.Fatalf("xlsx at the limit: %v", err)
	}
}

func TestSniffDelimiter(t *testing.T) {
	for in, want := range map[string]rune{
		"a,b\nc,d\n":             ',',
		"a;b\nc;d\n":             ';',
		"a\tb\nc\td\n":           '\t',
		"\"1,2\";x\n\"3,4\";y\n": ';',
		"09121234567\n":          ',',
	} {
		if got := sniffDelimiter([]byte(in)); got != want {
			t.Errorf("%q: %q, want %q", in, got, want)
		}
	}
}

// FuzzScanCSV feeds arbitrary bytes to the csv reader and the row scanner: no panic,
// and every data row is counted once as valid, invalid or duplicate.
func FuzzScanCSV(f *testing.F) {
	for _, s := range []string{"mobile\n09121234567\n", "a;b\n1;09121234567\n", "\uFEFF\"x\n", "\xff\xfe0\x009\x00",
		"09121234567,سلام\n09121234567,سلام\n", "\x00\n\r\n,,,\n", "نام\tموبایل\nعلی\t9.89121E+11\n"} {
		f.Add([]byte(s), false)
	}
	f.Fuzz(func(t *testing.T, data []byte, p2p bool) {
		purpose := PurposeSend
		if p2p {
			purpose = PurposePeerToPeer
		}
		res, err := scanPath(t, writeFile(t, "f.csv", data), purpose, 0)
		var fe *FileError
		if err != nil {
			if !errors.As(err, &fe) {
				t.Fatalf("not a file error: %v", err)
			}
			return
		}
		c := res.counts
		if c.Records != c.Valid+c.Invalid+c.Duplicates || c.Valid != len(res.rows) || c.Invalid != len(res.errs) {
			t.Fatalf("counts %+v, rows %d, errors %d", c, len(res.rows), len(res.errs))
		}
		for _, r := range res.rows {
			if m, kind := ParseMobile(cell(r.Cells, res.sc.mobileCol)); m != r.Mobile || kind != "" {
				t.Fatalf("row %+v", r)
			}
		}
	})
}
