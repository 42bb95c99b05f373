package upload

import (
	"archive/zip"
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"unicode/utf8"

	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/transform"
)

// rowSource yields the rows of a file's first sheet, blank ones included.
type rowSource interface {
	// Next returns the next row's cells and its 1-based number in the sheet (the
	// line of a text file); io.EOF after the last row.
	Next() (cells []string, no int, err error)
	// Done estimates the fraction of the file read so far, from 0 to 1.
	Done() float64
	Close() error
}

// openSource opens a stored file by its extension. A file that cannot be read as
// that format is ErrFormat.
func openSource(p, ext string) (rowSource, error) {
	switch ext {
	case "xlsx":
		x, err := openSheet(p)
		if err != nil {
			return nil, err
		}
		return prefetch(x), nil
	case "csv":
		return openCSV(p)
	case "txt":
		return openTXT(p)
	}
	return nil, ErrFormat
}

var dimensionRef = regexp.MustCompile(`<dimension[^>]*\sref="[A-Z]+[0-9]+:[A-Z]+([0-9]+)"`)

// estimateSheetRows guesses how many rows the first sheet has without reading it:
// the dimension element when the writer recorded one, else the sheet's unzipped size
// over the bytes per row of its first 256 KB. 0 when it cannot tell.
func estimateSheetRows(zr *zip.Reader) int {
	sheet := firstSheetPath(zr)
	for _, zf := range zr.File {
		if zf.Name != sheet {
			continue
		}
		rc, err := zf.Open()
		if err != nil {
			return 0
		}
		head, _ := io.ReadAll(io.LimitReader(rc, 256<<10))
		_ = rc.Close()
		if m := dimensionRef.FindSubmatch(head); m != nil {
			if n, err := strconv.Atoi(string(m[1])); err == nil && n > 1 {
				return n
			}
		}
		start := bytes.Index(head, []byte("<sheetData"))
		if start < 0 {
			return 0
		}
		rowsSeen := bytes.Count(head[start:], []byte("<row"))
		if rowsSeen < 2 {
			return rowsSeen
		}
		perRow := float64(len(head)-start) / float64(rowsSeen)
		return int(float64(zf.UncompressedSize64-uint64(start)) / perRow)
	}
	return 0
}

// firstSheetPath finds the zip path of the workbook's first sheet.
func firstSheetPath(zr *zip.Reader) string {
	p, _ := firstSheet(zr)
	return p
}

// firstSheet finds the zip path of the workbook's first sheet (sheet1.xml when the
// workbook cannot tell); false when the workbook lists no sheet at all.
func firstSheet(zr *zip.Reader) (string, bool) {
	const fallback = "xl/worksheets/sheet1.xml"
	read := func(name string, v any) bool {
		for _, zf := range zr.File {
			if strings.EqualFold(zf.Name, name) {
				rc, err := zf.Open()
				if err != nil {
					return false
				}
				defer rc.Close()
				return xml.NewDecoder(io.LimitReader(rc, 4<<20)).Decode(v) == nil
			}
		}
		return false
	}
	var wb struct {
		Sheets []struct {
			ID string `xml:"http://schemas.openxmlformats.org/officeDocument/2006/relationships id,attr"`
		} `xml:"sheets>sheet"`
	}
	var rels struct {
		Rel []struct {
			ID     string `xml:"Id,attr"`
			Target string `xml:"Target,attr"`
		} `xml:"Relationship"`
	}
	if !read("xl/workbook.xml", &wb) {
		return fallback, true
	}
	if len(wb.Sheets) == 0 {
		return "", false
	}
	if !read("xl/_rels/workbook.xml.rels", &rels) {
		return fallback, true
	}
	for _, r := range rels.Rel {
		if r.ID == wb.Sheets[0].ID {
			if strings.HasPrefix(r.Target, "/") {
				return strings.TrimPrefix(r.Target, "/"), true
			}
			return path.Join("xl", r.Target), true
		}
	}
	return fallback, true
}

// countingReader counts the bytes read from a file, for progress.
type countingReader struct {
	r io.Reader
	n int64
}

// Read reads from the underlying file and counts the bytes it returns.
func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// textFile is an open csv or txt file decoded to UTF-8.
type textFile struct {
	f     *os.File
	size  int64
	count *countingReader
	r     *bufio.Reader
}

const sniffBytes = 64 << 10

// openText opens a text file and decodes it to UTF-8: a UTF-8 byte-order mark is
// dropped, UTF-16 (with its mark, as Excel's "Unicode text" saves) is converted, and
// a file that is not valid UTF-8 is read as Windows-1256, the Persian Windows code
// page Excel uses for "CSV".
func openText(p string) (*textFile, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, fmt.Errorf("open upload: %w", err)
	}
	st, err := f.Stat()
	if err != nil {
		_ = f.Close()
		return nil, fmt.Errorf("stat upload: %w", err)
	}
	t := &textFile{f: f, size: st.Size(), count: &countingReader{r: f}}
	raw := bufio.NewReaderSize(t.count, sniffBytes)
	head, _ := raw.Peek(sniffBytes)
	var r io.Reader = raw
	switch {
	case bytes.HasPrefix(head, []byte{0xEF, 0xBB, 0xBF}):
		_, _ = raw.Discard(3)
	case bytes.HasPrefix(head, []byte{0xFF, 0xFE}), bytes.HasPrefix(head, []byte{0xFE, 0xFF}):
		r = transform.NewReader(raw, unicode.UTF16(unicode.LittleEndian, unicode.ExpectBOM).NewDecoder())
	case !validUTF8Prefix(head):
		r = charmap.Windows1256.NewDecoder().Reader(raw)
	}
	t.r = bufio.NewReaderSize(r, sniffBytes)
	return t, nil
}

// validUTF8Prefix reports whether b is UTF-8, allowing a rune cut at its end.
func validUTF8Prefix(b []byte) bool {
	for i := 0; i < 3 && len(b) > 0 && !utf8.Valid(b); i++ {
		b = b[:len(b)-1]
	}
	return utf8.Valid(b)
}

// Done estimates the fraction read from the raw bytes read over the file's size.
func (t *textFile) Done() float64 {
	if t.size <= 0 {
		return 0
	}
	return min(1, float64(t.count.n)/float64(t.size))
}

// Close closes the underlying file.
func (t *textFile) Close() error { return t.f.Close() }

// cleanCell makes a text cell storable: valid UTF-8 without NUL bytes.
func cleanCell(s string) string {
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	if strings.IndexByte(s, 0) >= 0 {
		s = strings.ReplaceAll(s, "\x00", "")
	}
	return s
}

// csvSource reads a csv file whose delimiter (comma, semicolon or tab) is sniffed
// from its first lines.
type csvSource struct {
	*textFile
	cr *csv.Reader
}

func openCSV(p string) (*csvSource, error) {
	t, err := openText(p)
	if err != nil {
		return nil, err
	}
	head, _ := t.r.Peek(sniffBytes)
	comma := sniffDelimiter(head)
	cr := csv.NewReader(&recordBound{r: t.r, comma: byte(comma), state: 's'})
	cr.Comma = comma
	cr.FieldsPerRecord = -1
	cr.LazyQuotes = true
	return &csvSource{textFile: t, cr: cr}, nil
}

// Next reads the next csv record with cleaned cells and the line it starts on.
func (c *csvSource) Next() ([]string, int, error) {
	rec, err := c.cr.Read()
	if err == io.EOF {
		return nil, 0, io.EOF
	}
	if errors.Is(err, errRecordTooLong) {
		return nil, 0, ErrTooLong
	}
	if err != nil {
		return nil, 0, fmt.Errorf("read csv: %w: %w", ErrFormat, err)
	}
	line, _ := c.cr.FieldPos(0)
	for i, v := range rec {
		rec[i] = cleanCell(v)
	}
	return rec, line, nil
}

// sniffDelimiter picks the delimiter that splits the most of the first lines (quoted
// text ignored); comma when none does.
func sniffDelimiter(head []byte) rune {
	candidates := []rune{',', ';', '\t'}
	lines := make([]int, len(candidates))
	seen := 0
	for _, line := range strings.SplitN(string(head), "\n", 51) {
		if strings.TrimSpace(line) == "" {
			continue
		}
		if seen++; seen > 50 {
			break
		}
		inQuote := false
		found := make([]bool, len(candidates))
		for _, r := range line {
			if r == '"' {
				inQuote = !inQuote
				continue
			}
			for i, c := range candidates {
				if !inQuote && r == c {
					found[i] = true
				}
			}
		}
		for i, f := range found {
			if f {
				lines[i]++
			}
		}
	}
	best := 0
	for i := range candidates {
		if lines[i] > lines[best] {
			best = i
		}
	}
	return candidates[best]
}

// txtSource reads one number per line.
type txtSource struct {
	*textFile
	sc *bufio.Scanner
	no int
}

func openTXT(p string) (*txtSource, error) {
	t, err := openText(p)
	if err != nil {
		return nil, err
	}
	sc := bufio.NewScanner(t.r)
	sc.Buffer(make([]byte, 0, 64<<10), maxTokenBytes)
	return &txtSource{textFile: t, sc: sc}, nil
}

// Next returns the next line as a one-cell row, with its line number.
func (t *txtSource) Next() ([]string, int, error) {
	if !t.sc.Scan() {
		if err := t.sc.Err(); errors.Is(err, bufio.ErrTooLong) {
			return nil, 0, ErrTooLong
		} else if err != nil {
			return nil, 0, fmt.Errorf("read txt: %w: %w", ErrFormat, err)
		}
		return nil, 0, io.EOF
	}
	t.no++
	return []string{cleanCell(strings.TrimSuffix(t.sc.Text(), "\r"))}, t.no, nil
}

// prefetched reads a source in its own goroutine, a batch of rows ahead, so that
// decoding the sheet's XML (the costly part of xlsx) runs on one core while the rows
// are checked and COPYed on another.
type prefetched struct {
	src  rowSource
	ch   chan []fetchedRow
	stop chan struct{}
	done chan struct{}
	frac atomic.Uint64 // math.Float64bits of src.Done()

	batch []fetchedRow
	i     int
	err   error
}

type fetchedRow struct {
	cells []string
	no    int
	err   error
}

// A batch holds at most prefetchBatch rows and ends once its cells pass
// prefetchBytes, so the batches in flight stay a few megabytes however long the
// rows are.
const (
	prefetchBatch = 512
	prefetchBytes = 2 << 20
)

func prefetch(src rowSource) *prefetched {
	p := &prefetched{src: src, ch: make(chan []fetchedRow, 4), stop: make(chan struct{}), done: make(chan struct{})}
	go p.run()
	return p
}

func (p *prefetched) run() {
	defer close(p.done)
	for {
		b := make([]fetchedRow, 0, prefetchBatch)
		var err error
		for size := 0; len(b) < prefetchBatch && size < prefetchBytes && err == nil; {
			var r fetchedRow
			r.cells, r.no, r.err = p.src.Next()
			err = r.err
			b = append(b, r)
			for _, c := range r.cells {
				size += len(c) + 16 // and the string header: a row of 16,384 empty cells counts
			}
		}
		p.frac.Store(math.Float64bits(p.src.Done()))
		select {
		case p.ch <- b:
		case <-p.stop:
			return
		}
		if err != nil {
			return
		}
	}
}

// Next returns the next row of the prefetched batches, waiting for a batch when needed.
func (p *prefetched) Next() ([]string, int, error) {
	if p.err != nil {
		return nil, 0, p.err
	}
	if p.i == len(p.batch) {
		p.batch, p.i = <-p.ch, 0
	}
	r := p.batch[p.i]
	p.batch[p.i] = fetchedRow{}
	p.i++
	if r.err != nil {
		p.err = r.err
	}
	return r.cells, r.no, r.err
}

// Done returns the source's fraction read as of the last batch fetched.
func (p *prefetched) Done() float64 { return math.Float64frombits(p.frac.Load()) }

// Close stops the reader goroutine before closing the source.
func (p *prefetched) Close() error {
	close(p.stop)
	<-p.done
	return p.src.Close()
}
