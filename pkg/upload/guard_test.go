package upload

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

const (
	sheetNS = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
	relNS   = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
)

// writeBookParts writes the parts of a one-sheet workbook but the sheet itself (and
// the shared-strings table, which shared names).
func writeBookParts(t testing.TB, zw *zip.Writer, shared bool) {
	t.Helper()
	put := func(name, body string) {
		w, err := zw.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := io.WriteString(w, body); err != nil {
			t.Fatal(err)
		}
	}
	const head = `<?xml version="1.0" encoding="UTF-8"?>`
	const rels = `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">`
	sst, sstRel := "", ""
	if shared {
		sst = `<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>`
		sstRel = `<Relationship Id="rId2" Type="` + relNS + `/sharedStrings" Target="sharedStrings.xml"/>`
	}
	put("[Content_Types].xml", head+`<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">`+
		`<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>`+
		`<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>`+
		`<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`+sst+`</Types>`)
	put("_rels/.rels", head+rels+`<Relationship Id="rId1" Type="`+relNS+`/officeDocument" Target="xl/workbook.xml"/></Relationships>`)
	put("xl/workbook.xml", head+`<workbook xmlns="`+sheetNS+`" xmlns:r="`+relNS+`"><sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>`)
	put("xl/_rels/workbook.xml.rels", head+rels+`<Relationship Id="rId1" Type="`+relNS+`/worksheet" Target="worksheets/sheet1.xml"/>`+sstRel+`</Relationships>`)
}

// repeat streams n copies of b.
func repeat(b []byte, n int) io.Reader {
	rs := make([]io.Reader, n)
	for i := range rs {
		rs[i] = bytes.NewReader(b)
	}
	return io.MultiReader(rs...)
}

// writeBomb writes an xlsx whose entry name holds head, then n bytes of fill, then
// tail, compressed as tightly as deflate allows, streaming (the archive is a few
// hundred kilobytes whatever n is).
func writeBomb(t testing.TB, name, head string, fill byte, n int, tail string) []byte {
	t.Helper()
	var out bytes.Buffer
	zw := zip.NewWriter(&out)
	zw.RegisterCompressor(zip.Deflate, func(w io.Writer) (io.WriteCloser, error) { return flate.NewWriter(w, flate.BestSpeed) })
	writeBookParts(t, zw, false)
	if !strings.EqualFold(strings.ReplaceAll(name, "\\", "/"), "xl/worksheets/sheet1.xml") {
		w, _ := zw.Create("xl/worksheets/sheet1.xml")
		_, _ = io.WriteString(w, `<worksheet xmlns="`+sheetNS+`"><sheetData><row r="1"><c r="A1"><v>9121234567</v></c></row></sheetData></worksheet>`)
	}
	w, err := zw.Create(name)
	if err != nil {
		t.Fatal(err)
	}
	chunk := bytes.Repeat([]byte{fill}, 1<<20)
	body := io.MultiReader(strings.NewReader(head), repeat(chunk, n>>20), strings.NewReader(tail))
	if _, err := io.Copy(w, body); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// cellBomb is an xlsx with one 400 MB cell; entryBomb one with an 800 MB styles part.
func cellBomb(t testing.TB) []byte {
	return writeBomb(t, "xl/worksheets/sheet1.xml", `<worksheet xmlns="`+sheetNS+`"><sheetData><row r="1">`+
		`<c r="A1"><v>9121234567</v></c><c r="B1" t="inlineStr"><is><t>`, 'A', 400<<20, `</t></is></c></row></sheetData></worksheet>`)
}

func entryBomb(t testing.TB) []byte {
	return writeBomb(t, "xl/styles.xml", "", 0, 800<<20, "")
}

// TestXLSXBombsRefused: the two bombs of the issue (an 817 KB file with one
// compressible 800 MB entry, a 409 KB file with one 400 MB cell), parsed at once,
// end failed with their Persian file errors, write no rows, lose their stored bytes,
// and the worker's memory grows by less than 300 MB (it grew to 2.4 and 4.6 GB).
func TestXLSXBombsRefused(t *testing.T) {
	e := newParseEnv(t)
	cell, entry := cellBomb(t), entryBomb(t)
	t.Logf("bombs: cell %d KB, entry %d KB", len(cell)>>10, len(entry)>>10)
	ids := []int64{e.add("cell.xlsx", PurposeSend, cell), e.add("entry.xlsx", PurposeSend, entry)}
	baseRSS := procStatus("VmRSS:")
	m := measure(func() {
		var wg sync.WaitGroup
		for _, id := range ids {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if err := e.svc.Parse(t.Context(), id); err != nil {
					t.Errorf("parse %d: %v", id, err)
				}
			}()
		}
		wg.Wait()
	})
	t.Logf("peak heap %d MB, peak RSS %d MB (base %d MB), %.1f s", m.peakHeap>>20, m.peakRSS>>20, baseRSS>>20, m.took.Seconds())
	if m.peakHeap > 300<<20 || m.peakRSS > baseRSS+300<<20 {
		t.Fatalf("memory: peak heap %d MB, peak RSS %d MB over a base of %d MB", m.peakHeap>>20, m.peakRSS>>20, baseRSS>>20)
	}
	for id, want := range map[int64]string{ids[0]: MsgTooLong, ids[1]: MsgUnpackedTooLarge} {
		d, err := e.svc.Get(t.Context(), e.account, id)
		if err != nil {
			t.Fatal(err)
		}
		if d.Status != StatusFailed || d.Error != want || e.count("file_rows", id) != 0 {
			t.Errorf("file %d: %s %q, %d rows; want failed %q", id, d.Status, d.Error, e.count("file_rows", id), want)
		}
		if _, _, err := e.svc.Original(t.Context(), e.account, id); !errors.Is(err, errNotFound) {
			t.Errorf("file %d: the refused file's bytes are still served: %v", id, err)
		}
	}
	if left, _ := filepath.Glob(filepath.Join(e.svc.store.(*Disk).Dir, "*", "*")); len(left) != 0 {
		t.Errorf("refused files left on disk: %v", left)
	}
}

// TestXLSXLyingDirectory: an entry whose central directory claims 1 KB but that
// inflates to 100 MB is read no further than the claim (archive/zip fails the read)
// and the file is refused as not a spreadsheet.
func TestXLSXLyingDirectory(t *testing.T) {
	var out bytes.Buffer
	zw := zip.NewWriter(&out)
	writeBookParts(t, zw, false)
	var packed bytes.Buffer
	fw, _ := flate.NewWriter(&packed, flate.BestSpeed)
	crc := crc32.NewIEEE()
	body := io.MultiReader(strings.NewReader(`<worksheet xmlns="`+sheetNS+`"><sheetData>`),
		repeat(bytes.Repeat([]byte(`<row><c t="inlineStr"><is><t>09121234567</t></is></c></row>`), 1<<14), 100))
	if _, err := io.Copy(io.MultiWriter(fw, crc), body); err != nil {
		t.Fatal(err)
	}
	_ = fw.Close()
	w, err := zw.CreateRaw(&zip.FileHeader{Name: "xl/worksheets/sheet1.xml", Method: zip.Deflate, CRC32: crc.Sum32(),
		CompressedSize64: uint64(packed.Len()), UncompressedSize64: 1 << 10})
	if err != nil {
		t.Fatal(err)
	}
	_, _ = w.Write(packed.Bytes())
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	_, err = scanPath(t, writeFile(t, "lie.xlsx", out.Bytes()), PurposeSend, 0)
	if !errors.Is(err, ErrFormat) {
		t.Fatalf("lying directory: %v, want %v", err, ErrFormat)
	}
}

// TestXLSXOtherSheetNames: the scan finds a long cell in the first sheet named with
// backslashes or in another case (excelize reads those as the sheet), and in any
// other worksheet (excelize unpacks them all).
func TestXLSXOtherSheetNames(t *testing.T) {
	head := `<worksheet xmlns="` + sheetNS + `"><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>`
	for _, name := range []string{`xl\worksheets\sheet1.xml`, "XL/Worksheets/Sheet1.xml", "xl/worksheets/sheet2.xml"} {
		p := writeFile(t, "other.xlsx", writeBomb(t, name, head, 'A', 1<<20, `</t></is></c></row></sheetData></worksheet>`))
		if _, err := scanPath(t, p, PurposeSend, 0); !errors.Is(err, ErrTooLong) {
			t.Errorf("%s: %v, want %v", name, err, ErrTooLong)
		}
	}
}

// writeSheet writes an xlsx of one sheet whose sheetData holds rows.
func writeSheet(t testing.TB, rows string) string {
	t.Helper()
	var out bytes.Buffer
	zw := zip.NewWriter(&out)
	writeBookParts(t, zw, false)
	w, _ := zw.Create("xl/worksheets/sheet1.xml")
	_, _ = io.WriteString(w, `<worksheet xmlns="`+sheetNS+`"><sheetData>`+rows+`</sheetData></worksheet>`)
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return writeFile(t, "sheet.xlsx", out.Bytes())
}

// TestXLSXFarRightCells: a styled empty cell in the last column adds no empty cells
// to a row, and a small sheet whose rows reach the last column cannot make the
// stored rows billions of cells: it is refused.
func TestXLSXFarRightCells(t *testing.T) {
	var rows strings.Builder
	for i := 1; i <= 100; i++ {
		fmt.Fprintf(&rows, `<row r="%d"><c r="A%d"><v>9121%06d</v></c><c r="XFD%d" s="1"/></row>`, i, i, i, i)
	}
	res, err := scanPath(t, writeSheet(t, rows.String()), PurposeSend, 0)
	if err != nil || res.counts.Valid != 100 || len(res.rows[0].Cells) != 1 {
		t.Fatalf("styled empty cells: %v %+v, %d cells", err, res.counts, len(res.rows[0].Cells))
	}
	rows.Reset()
	for i := 1; i <= maxFileCells/16384+1; i++ {
		fmt.Fprintf(&rows, `<row r="%d"><c r="A%d"><v>9121%06d</v></c><c r="XFD%d"><v>1</v></c></row>`, i, i, i, i)
	}
	if _, err := readAll(writeSheet(t, rows.String())); !errors.Is(err, ErrUnpackedTooLarge) {
		t.Fatalf("cells in the last column: %v, want %v", err, ErrUnpackedTooLarge)
	}
}

// TestArchiveBounds: the central-directory checks, one bound at a time.
func TestArchiveBounds(t *testing.T) {
	declared := func(entries map[string]uint64) *zip.Reader {
		zr := &zip.Reader{}
		for name, size := range entries {
			zr.File = append(zr.File, &zip.File{FileHeader: zip.FileHeader{Name: name, UncompressedSize64: size}})
		}
		return zr
	}
	cases := []struct {
		name    string
		entries map[string]uint64
	}{
		{"a big non-sheet part", map[string]uint64{"docProps/app.xml": maxPartBytes + 1}},
		{"parts kept in memory together", map[string]uint64{"a.xml": 7 << 20, "b.xml": 7 << 20, "c.xml": 7 << 20,
			"d.xml": 7 << 20, "e.xml": 7 << 20}},
		{"a sheet over a million rows' size", map[string]uint64{"xl/worksheets/sheet1.xml": maxSheetBytes + 1}},
		{"a huge shared-strings table", map[string]uint64{"xl/sharedStrings.xml": maxSharedBytes + 1}},
		{"all sheets together", map[string]uint64{"xl/worksheets/sheet1.xml": maxSheetBytes, "xl/worksheets/sheet2.xml": maxSheetBytes}},
	}
	for _, c := range cases {
		want := ErrUnpackedTooLarge
		if c.name == "a huge shared-strings table" {
			want = ErrSharedTooLarge
		}
		if err := checkDirectory(declared(c.entries)); !errors.Is(err, want) {
			t.Errorf("%s: %v", c.name, err)
		}
	}
	many := map[string]uint64{}
	for i := range maxEntries + 1 {
		many[fmt.Sprint("x/", i)] = 1
	}
	if err := checkDirectory(declared(many)); !errors.Is(err, ErrUnpackedTooLarge) {
		t.Errorf("too many entries: %v", err)
	}
}

// TestXMLBounds: the streaming XML scan finds an over-long text, tag, comment,
// CDATA section or row however the bytes arrive, and passes a normal sheet.
func TestXMLBounds(t *testing.T) {
	long := strings.Repeat("x", maxTokenBytes+1)
	cells := strings.Repeat(`<c t="inlineStr"><is><t>`+strings.Repeat("م", 30000)+`</t></is></c>`, 9)
	cases := []struct {
		name, xml string
		want      error
	}{
		{"normal", `<?xml version="1.0"?><!-- a > b --><sheetData><row r="1"><c a="x>y"><v>1</v></c></row><row/></sheetData>`, nil},
		{"a long cell of Excel's limit", `<row><c><is><t>` + strings.Repeat("&amp;", MaxCellChars) + `</t></is></c></row>`, nil},
		{"long text", `<row><c><v>` + long + `</v></c></row>`, ErrTooLong},
		{"long tag", `<row><c a="` + long + `"/></row>`, ErrTooLong},
		{"long comment", `<!--` + strings.Repeat("<", maxTokenBytes) + `-->`, ErrTooLong},
		{"long CDATA", `<row><![CDATA[` + strings.Repeat("<a>", maxTokenBytes/3) + `]]></row>`, ErrTooLong},
		{"a row of many long cells", `<x:row>` + cells + `</x:row>`, ErrTooLong},
		{"many rows", strings.Repeat(`<row/>`, 11), ErrUnpackedTooLarge},
	}
	for _, c := range cases {
		for _, step := range []int{1, 7, 1 << 20} {
			b := &xmlBounds{unit: "row", maxUnits: 10}
			var err error
			for p := []byte(c.xml); len(p) > 0 && err == nil; {
				n := min(step, len(p))
				err, p = b.write(p[:n]), p[n:]
			}
			if !errors.Is(err, c.want) {
				t.Errorf("%s (step %d): %v, want %v", c.name, step, err, c.want)
			}
		}
	}
}

// TestTextLongLines: a csv or txt file of one enormous line, or a quoted csv field
// spanning endless lines, is refused without reading it whole.
func TestTextLongLines(t *testing.T) {
	line := strings.Repeat("9", 8<<20)
	cases := []struct{ name, data string }{
		{"one-line.csv", "موبایل,نام\n09121234567,علی\n" + line},
		{"quoted.csv", "موبایل,نام\n09121234567,\"" + strings.Repeat("خط\r\n", 1<<20) + "\"\n"},
		{"one-line.txt", "09121234567\n" + line},
	}
	for _, c := range cases {
		_, err := scanPath(t, writeFile(t, c.name, []byte(c.data)), PurposeSend, 0)
		if !errors.Is(err, ErrTooLong) {
			t.Errorf("%s: %v, want %v", c.name, err, ErrTooLong)
		}
	}
	// Quoted multi-line fields, CRLF lines and lazy quotes still read.
	ok := "موبایل,متن\r\n09121234567,\"سلام\r\nدنیا\"\r\n09351234567,a\"b\r\n\"09201234567\",\"x\"\"y\"\r\n"
	res, err := scanPath(t, writeFile(t, "ok.csv", []byte(ok)), PurposeSend, 0)
	if err != nil || res.counts.Valid != 3 {
		t.Fatalf("ordinary csv: %v %+v", err, res.counts)
	}
	// A cell over Excel's limit in a csv.
	_, err = scanPath(t, writeFile(t, "cell.csv", []byte("09121234567,"+strings.Repeat("ب", MaxCellChars+1)+"\n")), PurposeSend, 0)
	if !errors.Is(err, ErrTooLong) {
		t.Fatalf("long csv cell: %v", err)
	}
}

// TestXLSXLongCellOK: a sheet with a cell of Excel's full 32,767 characters still
// parses.
func TestXLSXLongCellOK(t *testing.T) {
	p := writeXLSX(t, [][]any{{"موبایل", "یادداشت"}, {"09121234567", strings.Repeat("م&", MaxCellChars/2)}})
	res, err := scanPath(t, p, PurposeSend, 0)
	if err != nil || res.counts.Valid != 1 {
		t.Fatalf("long cell: %v %+v", err, res.counts)
	}
	_ = os.Remove(p)
}

// sharedBomb is an xlsx of a few hundred kilobytes whose shared-strings table
// unpacks to 250 MB in 8,000 items of 32,000 characters (each a valid cell).
func sharedBomb(t testing.TB) []byte {
	t.Helper()
	var out bytes.Buffer
	zw := zip.NewWriter(&out)
	zw.RegisterCompressor(zip.Deflate, func(w io.Writer) (io.WriteCloser, error) { return flate.NewWriter(w, flate.BestSpeed) })
	writeBookParts(t, zw, true)
	w, _ := zw.Create("xl/worksheets/sheet1.xml")
	_, _ = io.WriteString(w, `<worksheet xmlns="`+sheetNS+`"><sheetData><row r="1"><c r="A1"><v>9121234567</v></c>`+
		`<c r="B1" t="s"><v>0</v></c></row></sheetData></worksheet>`)
	w, err := zw.Create("xl/sharedStrings.xml")
	if err != nil {
		t.Fatal(err)
	}
	item := []byte(`<si><t>` + strings.Repeat("A", 32000) + `</t></si>`)
	body := io.MultiReader(strings.NewReader(`<sst xmlns="`+sheetNS+`" uniqueCount="8000">`), repeat(item, 8000),
		strings.NewReader(`</sst>`))
	if _, err := io.Copy(w, body); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// TestXLSXSharedStringsBounded: the shared-strings table is bounded by its total
// size: the 262 KB file whose table unpacks to 250 MB (it took about 1 GB of the
// worker) is refused with its Persian error before its text is held, and the
// parse's heap stays far below the table's size.
func TestXLSXSharedStringsBounded(t *testing.T) {
	e := newParseEnv(t)
	bomb := sharedBomb(t)
	t.Logf("shared-strings bomb: %d KB", len(bomb)>>10)
	id := e.add("shared.xlsx", PurposeSend, bomb)
	m := measure(func() {
		if err := e.svc.Parse(t.Context(), id); err != nil {
			t.Errorf("parse: %v", err)
		}
	})
	t.Logf("peak heap %d MB", m.peakHeap>>20)
	if m.peakHeap > 120<<20 {
		t.Errorf("peak heap %d MB for a refused file", m.peakHeap>>20)
	}
	d, err := e.svc.Get(t.Context(), e.account, id)
	if err != nil {
		t.Fatal(err)
	}
	if d.Status != StatusFailed || d.Error != MsgSharedTooLarge || e.count("file_rows", id) != 0 {
		t.Errorf("file: %s %q, %d rows; want failed %q", d.Status, d.Error, e.count("file_rows", id), MsgSharedTooLarge)
	}
}
