package upload

import (
	"archive/zip"
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"
)

// writeParts writes an xlsx of the workbook parts, a shared-strings table when sst
// is not empty, and sheet1.xml.
func writeParts(t *testing.T, sst, sheet string) string {
	t.Helper()
	var out bytes.Buffer
	zw := zip.NewWriter(&out)
	writeBookParts(t, zw, sst != "")
	parts := [][2]string{{"xl/worksheets/sheet1.xml", sheet}}
	if sst != "" {
		parts = append(parts, [2]string{"xl/sharedStrings.xml", sst})
	}
	for _, p := range parts {
		w, err := zw.Create(p[0])
		if err != nil {
			t.Fatal(err)
		}
		if _, err := io.WriteString(w, p[1]); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return writeFile(t, "layout.xlsx", out.Bytes())
}

// sheetRows reads every row of an xlsx with the upload's reader: row n is rows[n-1].
func sheetRows(t *testing.T, p string) [][]string {
	t.Helper()
	src, err := openSource(p, "xlsx")
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	var rows [][]string
	for {
		cells, no, err := src.Next()
		if err == io.EOF {
			return rows
		}
		if err != nil {
			t.Fatal(err)
		}
		if no != len(rows)+1 {
			t.Fatalf("row %d after %d rows", no, len(rows))
		}
		rows = append(rows, cells)
	}
}

// excelizeRows reads every row with excelize's raw-value iterator, the reader the
// upload used before.
func excelizeRows(t *testing.T, p string) [][]string {
	t.Helper()
	var rows [][]string
	if err := excelizeRead(p, excelize.Options{RawCellValue: true}, func(c []string) { rows = append(rows, c) }); err != nil {
		t.Fatal(err)
	}
	return rows
}

// excelizeRead passes every row of the first sheet, read by excelize with opts, to each.
func excelizeRead(p string, opts excelize.Options, each func([]string)) error {
	f, err := excelize.OpenFile(p, opts)
	if err != nil {
		return err
	}
	defer f.Close()
	it, err := f.Rows(f.GetSheetList()[0])
	if err != nil {
		return err
	}
	for it.Next() {
		cells, err := it.Columns(opts)
		if err != nil {
			return err
		}
		each(cells)
	}
	return it.Error()
}

// sameRows compares rows, an empty row and a nil one alike.
func sameRows(a, b [][]string) bool {
	return slices.EqualFunc(a, b, func(x, y []string) bool { return len(x) == 0 && len(y) == 0 || slices.Equal(x, y) })
}

func checkRows(t *testing.T, name, p string, want [][]string) {
	t.Helper()
	got := sheetRows(t, p)
	if !sameRows(got, want) {
		t.Errorf("%s: rows\n%q\nwant\n%q", name, got, want)
	}
	if ex := excelizeRows(t, p); !sameRows(got, ex) {
		t.Errorf("%s: rows\n%q\nexcelize reads\n%q", name, got, ex)
	}
}

// excelSST and excelSheet are a sheet as Excel lays it out: every text shared,
// style attributes, spans, a dimension and views, cells left out where empty.
const excelSST = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` + "\r\n" +
	`<sst xmlns="` + sheetNS + `" count="9" uniqueCount="8"><si><t>موبایل</t></si><si><t>نام</t></si><si><t>09121234567</t></si>` +
	`<si><t xml:space="preserve"> علی </t></si><si><t>۰۹۳۵۱۲۳۴۵۶۷</t></si><si><t>A &amp; B &lt;x&gt; &#1575;&#x628;</t></si>` +
	`<si><t>line_x000D_break</t></si><si><t>دو` + "\r\n" + `خط</t></si></sst>`

var excelSheet = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` + "\r\n" +
	`<worksheet xmlns="` + sheetNS + `" xmlns:r="` + relNS + `" xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006" ` +
	`mc:Ignorable="x14ac" xmlns:x14ac="http://schemas.microsoft.com/office/spreadsheetml/2009/9/ac"><dimension ref="A1:D9"/>` +
	`<sheetViews><sheetView rightToLeft="1" tabSelected="1" workbookViewId="0"><selection activeCell="A2" sqref="A2"/></sheetView></sheetViews>` +
	`<sheetFormatPr defaultRowHeight="15" x14ac:dyDescent="0.25"/><cols><col min="1" max="1" width="14.7" style="2" customWidth="1"/></cols><sheetData>` +
	`<row r="1" spans="1:3" x14ac:dyDescent="0.25"><c r="A1" s="1" t="s"><v>0</v></c><c r="B1" s="1" t="s"><v>1</v></c></row>` +
	`<row r="2" spans="1:3" x14ac:dyDescent="0.25"><c r="A2" s="2" t="s"><v>2</v></c><c r="B2" t="s"><v>3</v></c><c r="C2" s="3"><v>45291</v></c></row>` +
	`<row r="3" spans="1:3"><c r="A3" s="4"><v>9121234568</v></c><c r="B3" s="2"/><c r="C3" s="3"><v>45291.5</v></c></row>` +
	`<row r="4" spans="1:3"><c r="A4"><v>9.351234567E+9</v></c></row>` +
	`<row r="6" spans="1:3"><c r="A6" t="s"><v>4</v></c><c r="C6" t="d"><v>2024-01-15T00:00:00Z</v></c></row>` +
	`<row r="7"><c r="A7"><v>9.12e+09</v></c><c r="B7" t="s"><v>99</v></c><c r="D7" s="1"/></row>` +
	`<row r="8" spans="2:4"><c r="B8" t="s"><v>5</v></c><c r="D8"><v>1</v></c></row>` +
	`<row r="9"><c r="A9" t="s"><v>6</v></c><c r="B9" t="s"><v>7</v></c></row>` +
	`</sheetData><pageMargins left="0.7" right="0.7" top="0.75" bottom="0.75" header="0.3" footer="0.3"/></worksheet>`

// TestSheetExcelLayout reads Excel's layout: shared strings (entities, xml:space,
// _xHHHH_ escapes, CRLF), cells skipped by their r= references, a missing row, a
// date as its serial and as t="d", numbers as floats, Persian digits, an index
// out of the table — the same rows excelize's raw read gives — and the scanner
// takes the numbers from them.
func TestSheetExcelLayout(t *testing.T) {
	p := writeParts(t, excelSST, excelSheet)
	checkRows(t, "Excel layout", p, [][]string{
		{"موبایل", "نام"},
		{"09121234567", " علی ", "45291"},
		{"9121234568", "", "45291.5"},
		{"9.351234567E+9"},
		nil,
		{"۰۹۳۵۱۲۳۴۵۶۷", "", "2024-01-15T00:00:00Z"},
		{"9.12e+09"},
		{"", "A & B <x> اب", "", "1"},
		{"line\rbreak", "دو\nخط"},
	})
	res, err := scanPath(t, p, PurposeSend, 0)
	if err != nil {
		t.Fatal(err)
	}
	var mobiles []string
	for _, r := range res.rows {
		mobiles = append(mobiles, r.Mobile)
	}
	want := []string{"989121234567", "989121234568", "989351234567"}
	if !slices.Equal(mobiles, want) || res.counts.Valid != 3 {
		t.Fatalf("mobiles %q (%+v), want %q", mobiles, res.counts, want)
	}
}

// libreSST has rich-text runs (fonts, a bold run), a phonetic run whose text is
// not the cell's, and CDATA.
const libreSST = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` + "\n" +
	`<sst xmlns="` + sheetNS + `" count="4" uniqueCount="4"><si><t xml:space="preserve">شماره</t></si>` +
	`<si><r><rPr><sz val="10"/><rFont val="Arial"/><family val="2"/><charset val="1"/></rPr><t xml:space="preserve">0912</t></r>` +
	`<r><rPr><b val="true"/><sz val="10"/><rFont val="Arial"/></rPr><t xml:space="preserve">1234567</t></r></si>` +
	`<si><t>مریم</t><rPh sb="0" eb="1"><t>phonetic</t></rPh><phoneticPr fontId="1"/></si>` +
	`<si><t><![CDATA[a<b & c]]></t></si></sst>`

const libreRow = `<row r="%d" customFormat="false" ht="12.8" hidden="false" customHeight="false" outlineLevel="0" collapsed="false">`

var libreSheet = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` + "\n" +
	`<worksheet xmlns="` + sheetNS + `"><sheetPr filterMode="false"><pageSetUpPr fitToPage="false"/></sheetPr><dimension ref="A1:E4"/>` +
	`<!-- a comment with <row r="9"> in it --><?pi x?><sheetData>` +
	fmt.Sprintf(libreRow, 1) + `<c r="A1" s="1" t="s"><v>0</v></c></row>` +
	fmt.Sprintf(libreRow, 2) + `<c r="A2" s="0" t="s"><v>1</v></c><c r="B2" s="0" t="s"><v>2</v></c>` +
	`<c r="C2" t="str"><f>A2&amp;""</f><v>09121234567</v></c><c r="D2"><f>1/0</f><v></v></c><c r="E2" t="b"><v>1</v></c></row>` +
	fmt.Sprintf(libreRow, 3) + `<c r="A3" s="0" t="n"><v>9351234567</v></c><c r="B3" t="inlineStr"><is><r><t>سا</t></r><r><rPr><b/></rPr><t>را</t></r>` +
	`<rPh><t>x</t></rPh></is></c><c r="C3" t="e"><v>#DIV/0!</v></c><c r="D3" t="s"><v>3</v></c></row>` +
	`<row><c t="inlineStr"><is><t>بی‌شماره</t></is></c><c><v>7</v></c></row>` +
	`</sheetData><pageMargins left="0.7875" right="0.7875" top="1.05" bottom="1.05" header="0.7875" footer="0.7875"/></worksheet>`

// TestSheetLibreOfficeLayout reads LibreOffice's layout: rich-text runs joined,
// phonetic runs left out, inline strings with runs, formulas (a string result, an
// empty result kept as a cell), booleans and errors as stored, CDATA, comments and
// processing instructions skipped, and rows and cells without r= references.
func TestSheetLibreOfficeLayout(t *testing.T) {
	checkRows(t, "LibreOffice layout", writeParts(t, libreSST, libreSheet), [][]string{
		{"شماره"},
		{"09121234567", "مریم", "09121234567", "", "1"},
		{"9351234567", "سارا", "#DIV/0!", "a<b & c"},
		{"بی‌شماره", "7"},
	})
}

// TestSheetPrefixedAndInline reads a sheet written with a namespace prefix (as the
// Open XML SDK writes) and without a shared-strings table.
func TestSheetPrefixedAndInline(t *testing.T) {
	sheet := `<x:worksheet xmlns:x="` + sheetNS + `"><x:sheetData><x:row r="1"><x:c r="A1" t="inlineStr"><x:is><x:t>09121234567</x:t></x:is></x:c>` +
		`<x:c r="C1" t='inlineStr'><x:is><x:t>z</x:t></x:is></x:c></x:row><x:row r="2"/><x:row r="3"><x:c r="B3"><x:v>5</x:v></x:c></x:row></x:sheetData></x:worksheet>`
	checkRows(t, "prefixed", writeParts(t, "", sheet), [][]string{{"09121234567", "", "z"}, nil, {"", "5"}})
}

// TestSheetRefused: broken cell references, rows past Excel's last row and a
// sheet missing from the archive are refused.
func TestSheetRefused(t *testing.T) {
	cases := []struct {
		name, sheet string
		want        error
	}{
		{"a column past XFD", `<row r="1"><c r="XFE1"><v>1</v></c></row>`, ErrFormat},
		{"a reference without a row", `<row r="1"><c r="A"><v>1</v></c></row>`, ErrFormat},
		{"a row past the last", `<row r="1048577"><c><v>1</v></c></row>`, ErrTooManyRows},
		{"a bad row number", `<row r="x"><c><v>1</v></c></row>`, ErrFormat},
	}
	for _, c := range cases {
		p := writeParts(t, "", `<worksheet xmlns="`+sheetNS+`"><sheetData>`+c.sheet+`</sheetData></worksheet>`)
		if _, err := readAll(p); !errors.Is(err, c.want) {
			t.Errorf("%s: %v, want %v", c.name, err, c.want)
		}
	}
	var out bytes.Buffer
	zw := zip.NewWriter(&out)
	writeBookParts(t, zw, false)
	_ = zw.Close()
	if _, err := openSource(writeFile(t, "nosheet.xlsx", out.Bytes()), "xlsx"); !errors.Is(err, ErrFormat) {
		t.Errorf("no sheet: %v", err)
	}
}

// TestSharedStringsCompact: a table of 1,000,000 distinct texts is held in one
// byte slice and one offset slice (two allocations, not a million strings), and
// every item reads back.
func TestSharedStringsCompact(t *testing.T) {
	const n = 1_000_000
	var sst strings.Builder
	sst.WriteString(`<sst xmlns="` + sheetNS + `" uniqueCount="1000000">`)
	for i := range n {
		fmt.Fprintf(&sst, `<si><t>مشترک %d</t></si>`, i)
	}
	sst.WriteString(`</sst>`)
	p := writeParts(t, sst.String(), `<worksheet xmlns="`+sheetNS+`"><sheetData/></worksheet>`)
	zr, err := zip.OpenReader(p)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	s, err := loadSharedStrings(&zr.Reader)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.ends) != n || cap(s.ends) != n {
		t.Fatalf("%d items (capacity %d)", len(s.ends), cap(s.ends))
	}
	for _, i := range []int{0, 1, 499_999, n - 1} {
		if got, want := string(s.get(fmt.Sprint(i))), fmt.Sprintf("مشترک %d", i); got != want {
			t.Errorf("item %d: %q, want %q", i, got, want)
		}
	}
	if s.get("-1") != nil || s.get(fmt.Sprint(n)) != nil || s.get("x") != nil {
		t.Error("an index out of the table read an item")
	}
	t.Logf("%d items in %d MB", n, (cap(s.data)+4*cap(s.ends))>>20)
	if size := cap(s.data) + 4*cap(s.ends); size > 64<<20 {
		t.Fatalf("the table takes %d MB", size>>20)
	}
}
