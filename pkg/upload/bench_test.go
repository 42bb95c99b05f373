package upload

import (
	"archive/zip"
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	"github.com/chapar/chapar/internal/testing/testenv"
)

// TestBenchParse measures parsing a generated 1,000,000-row file, xlsx and csv:
// the worker's whole path (read, normalise, dedupe, COPY into file_rows, blacklist
// count, report) and the reader alone, with rows/s, the peak Go heap and the peak
// RSS of this process (reset through /proc/self/clear_refs before each run).
//
//	BENCH=1 go test -count=1 -run TestBenchParse -v ./pkg/upload/
//
// Besides csv and excelize's stream-writer layout, it writes the rows in the layouts
// Excel and LibreOffice write (see excelLayout, libreOfficeLayout). BENCH_ROWS
// changes the row count; BENCH_SOFFICE=1 also converts the csv to xlsx with an
// installed LibreOffice (soffice) and measures that;
// BENCH_FILE names one more file to measure (BENCH_ROWS distinct valid numbers).
func TestBenchParse(t *testing.T) {
	if os.Getenv("BENCH") != "1" {
		t.Skip("BENCH=1 runs the parse benchmark")
	}
	n := MaxRecords
	if v, err := strconv.Atoi(os.Getenv("BENCH_ROWS")); err == nil && v > 0 {
		n = v
	}
	dir := t.TempDir()
	start := time.Now()
	csvPath := writeNumbersCSV(t, n)
	xlsxPath := benchXLSX(t, dir, n)
	t.Logf("generated %d rows in %v (csv %s, xlsx %s)", n, time.Since(start).Round(time.Millisecond),
		size(csvPath), size(xlsxPath))
	excel := benchLayout(t, filepath.Join(dir, "excel.xlsx"), n, excelLayout)
	lo := benchLayout(t, filepath.Join(dir, "libreoffice.xlsx"), n, libreOfficeLayout)
	t.Logf("Excel layout %s (%d bytes of XML a row), LibreOffice layout %s (%d bytes of XML a row)",
		size(excel), xmlPerRow(t, excel, n), size(lo), xmlPerRow(t, lo, n))
	files := []string{xlsxPath, excel, lo, csvPath}
	labels := []string{"xlsx (excelize stream writer)", "xlsx (Excel layout)", "xlsx (LibreOffice layout)", "csv"}
	if os.Getenv("BENCH_SOFFICE") == "1" {
		files = append(files, sofficeXLSX(t, dir, csvPath))
		labels = append(labels, "xlsx (converted by LibreOffice)")
	}
	if p := os.Getenv("BENCH_FILE"); p != "" {
		files = append(files, p)
		labels = append(labels, filepath.Base(p))
	}
	e := newParseEnv(t)
	if err := e.db.Pool.QueryRow(context.Background(), `SELECT current_database()`).Scan(&benchDB); err != nil {
		t.Fatal(err)
	}
	defer func() { benchDB = "" }()
	for i, p := range files {
		name := labels[i]
		m := measure(func() {
			if c := readOnly(t, p); c.Valid != n {
				t.Fatalf("%s: %+v", p, c)
			}
		})
		report(t, name+", read", n, m)
		if os.Getenv("BENCH_EXCELIZE") == "1" && strings.HasSuffix(p, ".xlsx") {
			benchExcelize(t, name, p, n)
		}
		id := e.add(filepath.Base(p), PurposeSend, readFile(t, p))
		m = measure(func() {
			if err := e.svc.Parse(context.Background(), id); err != nil {
				t.Fatal(err)
			}
		})
		d, _ := e.svc.Get(context.Background(), e.account, id)
		if d.Status != StatusReady || d.Valid != n {
			t.Fatalf("%s: %s %q valid %d", p, d.Status, d.Error, d.Valid)
		}
		report(t, name+", parse + COPY", n, m)
		if _, err := e.db.Pool.Exec(context.Background(), `DELETE FROM files WHERE id = $1`, id); err != nil {
			t.Fatal(err)
		}
	}
}

// sofficeXLSX converts the csv to xlsx with an installed LibreOffice.
func sofficeXLSX(t *testing.T, dir, csvPath string) string {
	start := time.Now()
	out := filepath.Join(dir, "lo")
	cmd := exec.Command("soffice", "--headless", "--infilter=CSV:44,34,76,1", "--convert-to", "xlsx", "--outdir", out, csvPath)
	cmd.Env = append(os.Environ(), "HOME="+dir)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("soffice: %v\n%s", err, b)
	}
	lo := filepath.Join(out, "bench.xlsx")
	t.Logf("LibreOffice converted the csv in %v (%s)", time.Since(start).Round(time.Millisecond), size(lo))
	return lo
}

// xmlPerRow is the unzipped size of an xlsx's parts over its rows.
func xmlPerRow(t *testing.T, p string, n int) uint64 {
	zr, err := zip.OpenReader(p)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	var total uint64
	for _, zf := range zr.File {
		total += zf.UncompressedSize64
	}
	return total / uint64(n)
}

// benchExcelize measures reading with excelize's row iterator (raw values), the
// reader before sheetSource: with the options the upload used (shared strings
// over 1 MB in a temporary file) and with every part kept in memory.
func benchExcelize(t *testing.T, name, p string, n int) {
	for _, o := range []struct {
		label string
		opts  excelize.Options
	}{
		{"excelize, parts over 1 MB on disk", excelize.Options{RawCellValue: true, UnzipXMLSizeLimit: 1 << 20}},
		{"excelize, parts in memory", excelize.Options{RawCellValue: true, UnzipXMLSizeLimit: 1 << 30}},
	} {
		m := measure(func() {
			got := 0
			if err := excelizeRead(p, o.opts, func([]string) { got++ }); err != nil {
				t.Fatal(err)
			}
			if got != n+1 {
				t.Fatalf("%s: %d rows", o.label, got)
			}
		})
		report(t, name+", "+o.label, n, m)
	}
}

// benchDB is the bench's database, whose PostgreSQL backends measure counts.
var benchDB string

// readOnly scans a file without keeping its rows.
func readOnly(t *testing.T, p string) Counts {
	c, err := readAll(p)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// readAll scans a file without keeping its rows and returns the counts or the error.
func readAll(p string) (Counts, error) {
	src, err := openSource(p, strings.TrimPrefix(filepath.Ext(p), "."))
	if err != nil {
		return Counts{}, err
	}
	defer src.Close()
	sc, err := newScanner(src, PurposeSend, classifyTest)
	if err != nil {
		return Counts{}, err
	}
	for {
		if _, err := sc.Next(); err == io.EOF {
			return sc.counts, nil
		} else if err != nil {
			return sc.counts, err
		}
	}
}

type measured struct {
	took     time.Duration
	cpu      time.Duration // this process's user + system time
	pgCPU    time.Duration // the PostgreSQL backends' of benchDB (when set)
	peakHeap uint64
	peakRSS  uint64
}

// measure runs f and records its time, the peak heap (sampled) and the peak RSS.
func measure(f func()) measured {
	debug.FreeOSMemory()
	_ = os.WriteFile("/proc/self/clear_refs", []byte("5"), 0)
	var peak atomic.Uint64
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		t := time.NewTicker(20 * time.Millisecond)
		defer t.Stop()
		for {
			metrics.Read(s)
			if v := s[0].Value.Uint64(); v > peak.Load() {
				peak.Store(v)
			}
			select {
			case <-stop:
				return
			case <-t.C:
			}
		}
	}()
	cpu0, pg0 := testenv.ProcessCPU(), testenv.BackendCPU(benchDB)
	start := time.Now()
	f()
	m := measured{took: time.Since(start), cpu: testenv.ProcessCPU() - cpu0, pgCPU: testenv.BackendCPU(benchDB) - pg0}
	close(stop)
	<-done
	m.peakHeap = peak.Load()
	m.peakRSS = vmHWM()
	return m
}

// vmHWM is the process's peak resident set in bytes.
func vmHWM() uint64 { return procStatus("VmHWM:") }

// procStatus reads a size in kB from /proc/self/status, in bytes.
func procStatus(field string) uint64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, field); ok {
			kb, _ := strconv.ParseUint(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return kb << 10
		}
	}
	return 0
}

func report(t *testing.T, what string, n int, m measured) {
	perRow := func(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1000 / float64(n) }
	line := fmt.Sprintf("%-44s %8d rows %6.2f s %8.0f rows/s  cpu %6.2f s = %4.1f µs/row + PostgreSQL %4.1f µs/row  peak heap %4d MB  peak RSS %4d MB  load %s",
		what, n, m.took.Seconds(), float64(n)/m.took.Seconds(), m.cpu.Seconds(), perRow(m.cpu), perRow(m.pgCPU), m.peakHeap>>20, m.peakRSS>>20,
		testenv.LoadAverage())
	t.Log(line)
	fmt.Println("BENCH", line)
}

func size(p string) string {
	st, err := os.Stat(p)
	if err != nil {
		return "?"
	}
	return fmt.Sprintf("%.1f MB", float64(st.Size())/(1<<20))
}

// benchNumber is the i-th of distinct numbers spread over the three operators.
func benchNumber(i int) string {
	return [...]string{"0912", "0935", "0921"}[i%3] + fmt.Sprintf("%07d", i/3)
}

// benchXLSX writes the same rows as xlsx with excelize's stream writer, the numbers
// as numeric cells (the leading 0 lost, as a typed sheet has them).
func benchXLSX(t *testing.T, dir string, n int) string {
	f := excelize.NewFile()
	defer f.Close()
	sw, err := f.NewStreamWriter("Sheet1")
	if err != nil {
		t.Fatal(err)
	}
	if err := sw.SetRow("A1", []any{"نام", "شماره موبایل", "شهر"}); err != nil {
		t.Fatal(err)
	}
	row := make([]any, 3)
	for i := range n {
		num, _ := strconv.Atoi(benchNumber(i))
		row[0], row[1], row[2] = "مشترک "+strconv.Itoa(i), num, "تهران"
		cell, _ := excelize.CoordinatesToCellName(1, i+2)
		if err := sw.SetRow(cell, row); err != nil {
			t.Fatal(err)
		}
	}
	if err := sw.Flush(); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "bench.xlsx")
	out, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteTo(out); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
	return p
}

// xlsxLayout is how a spreadsheet program lays out a sheet of the bench's rows
// (name, mobile, city) over a shared-strings table: the sheet's parts before and
// after sheetData, one row, and one shared-strings item. Item 0–2 are the header,
// 3 the city; row i's name is item 4+2i and its number, when the layout keeps it as
// text, 5+2i.
type xlsxLayout struct {
	sheetHead, sheetTail string
	header               string // the header row (row 1)
	row                  func(w io.Writer, r, i int)
	item                 func(w io.Writer, text string)
	numbersAsText        bool
}

const xmlHead = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` + "\r\n"

// excelLayout is the layout Excel 365 writes: every text in the shared-strings
// table, the mobile column formatted as text (so the leading 0 stays) and thus
// shared too, styles, spans and x14ac:dyDescent on every row, a dimension,
// sheetViews, sheetFormatPr, cols and pageMargins.
var excelLayout = xlsxLayout{
	sheetHead: xmlHead + `<worksheet xmlns="` + sheetNS + `" xmlns:r="` + relNS + `" xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006" ` +
		`mc:Ignorable="x14ac xr xr2 xr3" xmlns:x14ac="http://schemas.microsoft.com/office/spreadsheetml/2009/9/ac" ` +
		`xmlns:xr="http://schemas.microsoft.com/office/spreadsheetml/2014/revision" xr:uid="{00000000-0001-0000-0000-000000000000}">` +
		`<dimension ref="A1:C%d"/><sheetViews><sheetView rightToLeft="1" tabSelected="1" workbookViewId="0"><selection activeCell="B2" sqref="B2"/></sheetView></sheetViews>` +
		`<sheetFormatPr defaultRowHeight="15" x14ac:dyDescent="0.25"/><cols><col min="1" max="1" width="18.7109375" customWidth="1"/>` +
		`<col min="2" max="2" width="14.42578125" style="2" customWidth="1"/></cols><sheetData>`,
	header: `<row r="1" spans="1:3" x14ac:dyDescent="0.25"><c r="A1" s="1" t="s"><v>0</v></c><c r="B1" s="1" t="s"><v>1</v></c><c r="C1" s="1" t="s"><v>2</v></c></row>`,
	row: func(w io.Writer, r, i int) {
		fmt.Fprintf(w, `<row r="%d" spans="1:3" x14ac:dyDescent="0.25"><c r="A%d" t="s"><v>%d</v></c><c r="B%d" s="2" t="s"><v>%d</v></c><c r="C%d" t="s"><v>3</v></c></row>`,
			r, r, 4+2*i, r, 5+2*i, r)
	},
	item: func(w io.Writer, text string) {
		fmt.Fprintf(w, `<si><t>%s</t></si>`, text)
	},
	sheetTail: `</sheetData><pageMargins left="0.7" right="0.7" top="0.75" bottom="0.75" header="0.3" footer="0.3"/>` +
		`<pageSetup orientation="portrait" r:id="rId1"/></worksheet>`,
	numbersAsText: true,
}

// libreOfficeLayout is the layout LibreOffice Calc 7 writes (compare
// testdata/libreoffice-numbers.xlsx): every row with its six attributes, t="n" on
// numbers, every text item in rich-text runs with their fonts (as after an edit
// that styles part of a cell), xml:space on every text — about 475 bytes of XML a
// row.
var libreOfficeLayout = xlsxLayout{
	sheetHead: xmlHead + `<worksheet xmlns="` + sheetNS + `" xmlns:r="` + relNS + `" xmlns:xdr="http://schemas.openxmlformats.org/drawingml/2006/spreadsheetDrawing" ` +
		`xmlns:x14="http://schemas.microsoft.com/office/spreadsheetml/2009/9/main" xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006">` +
		`<sheetPr filterMode="false"><pageSetUpPr fitToPage="false"/></sheetPr><dimension ref="A1:C%d"/><sheetViews><sheetView showFormulas="false" ` +
		`showGridLines="true" showRowColHeaders="true" showZeros="true" rightToLeft="true" tabSelected="true" showOutlineSymbols="true" ` +
		`defaultGridColor="true" view="normal" topLeftCell="A1" colorId="64" zoomScale="100" zoomScaleNormal="100" zoomScalePageLayoutView="60" ` +
		`workbookViewId="0"><selection pane="topLeft" activeCell="A1" activeCellId="0" sqref="A1"/></sheetView></sheetViews>` +
		`<sheetFormatPr defaultColWidth="11.53515625" defaultRowHeight="12.8" zeroHeight="false" outlineLevelRow="0" outlineLevelCol="0"></sheetFormatPr><sheetData>`,
	header: `<row r="1" customFormat="false" ht="12.8" hidden="false" customHeight="false" outlineLevel="0" collapsed="false">` +
		`<c r="A1" s="1" t="s"><v>0</v></c><c r="B1" s="1" t="s"><v>1</v></c><c r="C1" s="1" t="s"><v>2</v></c></row>`,
	row: func(w io.Writer, r, i int) {
		fmt.Fprintf(w, `<row r="%d" customFormat="false" ht="12.8" hidden="false" customHeight="false" outlineLevel="0" collapsed="false">`+
			`<c r="A%d" s="0" t="s"><v>%d</v></c><c r="B%d" s="0" t="n"><v>%s</v></c><c r="C%d" s="0" t="s"><v>3</v></c></row>`,
			r, r, 4+2*i, r, strings.TrimPrefix(benchNumber(i), "0"), r)
	},
	item: func(w io.Writer, text string) {
		head, tail, _ := strings.Cut(text, " ")
		fmt.Fprintf(w, `<si><r><rPr><sz val="10"/><rFont val="Arial"/><family val="2"/></rPr><t xml:space="preserve">%s </t></r>`+
			`<r><rPr><b val="true"/><sz val="10"/></rPr><t xml:space="preserve">%s</t></r></si>`, head, tail)
	},
	sheetTail: `</sheetData><printOptions headings="false" gridLines="false" gridLinesSet="true" horizontalCentered="false" verticalCentered="false"/>` +
		`<pageMargins left="0.7875" right="0.7875" top="1.05277777777778" bottom="1.05277777777778" header="0.7875" footer="0.7875"/></worksheet>`,
}

// benchLayout writes the bench's rows as an xlsx in a layout: a million unique
// names (and, when the layout keeps numbers as text, a million unique numbers) in
// the shared-strings table.
func benchLayout(t *testing.T, p string, n int, l xlsxLayout) string {
	out, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	zw := zip.NewWriter(out)
	writeBookParts(t, zw, true)
	w, err := zw.Create("xl/sharedStrings.xml")
	if err != nil {
		t.Fatal(err)
	}
	bw := bufio.NewWriterSize(w, 1<<20)
	fmt.Fprintf(bw, xmlHead+`<sst xmlns="%s" count="%d" uniqueCount="%d">`, sheetNS, 3*n+3, 2*n+4)
	for _, h := range []string{"نام", "شماره موبایل", "شهر", "تهران"} {
		l.item(bw, h)
	}
	for i := range n {
		l.item(bw, "مشترک "+strconv.Itoa(i))
		if l.numbersAsText {
			l.item(bw, benchNumber(i))
		}
	}
	bw.WriteString(`</sst>`)
	flushTo(t, bw)
	if w, err = zw.Create("xl/worksheets/sheet1.xml"); err != nil {
		t.Fatal(err)
	}
	bw = bufio.NewWriterSize(w, 1<<20)
	fmt.Fprintf(bw, l.sheetHead, n+1)
	bw.WriteString(l.header)
	for i := range n {
		l.row(bw, i+2, i)
	}
	bw.WriteString(l.sheetTail)
	flushTo(t, bw)
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
	return p
}

func flushTo(t *testing.T, bw *bufio.Writer) {
	if err := bw.Flush(); err != nil {
		t.Fatal(err)
	}
}
