package upload

import (
	"archive/zip"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
)

// Bounds of what an xlsx may unpack to (a zip bomb: a small archive of a huge entry).
// excelize keeps every entry in memory except the worksheets and the shared-strings
// table over xmlOnDisk, which it unpacks to temporary files and streams; so the
// entries kept in memory are bounded tightly, the streamed ones by what a sheet of
// MaxRecords rows can need. The central directory's sizes are checked before
// excelize sees the file, and archive/zip fails a read past an entry's declared size,
// so what is really decompressed stays within the same bounds.
const (
	// MaxCellChars is the longest cell text (Excel's own limit).
	MaxCellChars = 32767
	// maxRowBytes bounds one row: a sheet's XML of a row, a csv record.
	maxRowBytes = 512 << 10
	// maxTokenBytes bounds one XML text run, tag, comment or CDATA section: a cell
	// of MaxCellChars characters, each escaped, fits.
	maxTokenBytes = 256 << 10
	// maxSheetBytes bounds one worksheet's XML: MaxRecords rows of 1 KB.
	maxSheetBytes = MaxRecords << 10
	// maxSharedBytes and maxSharedItems bound the shared-strings table (at most
	// two distinct texts per row of a full sheet).
	maxSharedBytes = 256 << 20
	maxSharedItems = 2 * MaxRecords
	// maxPartBytes bounds any other entry (styles, themes, images), held in memory.
	maxPartBytes = 8 << 20
	// maxInMemory bounds all the entries excelize keeps in memory together.
	maxInMemory = 32 << 20
	// maxUnpacked bounds the whole archive unpacked.
	maxUnpacked = 3 << 29 // 1.5 GB
	// maxEntries bounds the entries of an archive.
	maxEntries = 10000
	// xmlOnDisk is the size from which excelize streams a sheet from a temporary file.
	xmlOnDisk = 1 << 20
)

// Persian messages of the bounds (file errors, spec §5 "processing error" family).
const (
	MsgUnpackedTooLarge = "حجم محتوای فایل پس از باز شدن بیش از حد مجاز است"
	MsgTooLong          = "یکی از ردیف‌ها یا خانه‌های فایل بیش از حد طولانی است (حداکثر ۳۲٬۷۶۷ نویسه در هر خانه)"
)

// The bound errors.
var (
	ErrUnpackedTooLarge = &FileError{MsgUnpackedTooLarge}
	ErrTooLong          = &FileError{MsgTooLong}
)

const sharedStringsPath = "xl/sharedstrings.xml"

// checkArchive refuses an xlsx whose entries would unpack beyond the bounds, then
// scans the first sheet and the shared-strings table, streaming, for a row or a
// token over its bound. It runs before excelize opens the file.
func checkArchive(zr *zip.Reader) error {
	if len(zr.File) > maxEntries {
		return ErrUnpackedTooLarge
	}
	var total, inMemory uint64
	for _, zf := range zr.File {
		size := zf.UncompressedSize64
		total += size
		name := strings.ToLower(strings.ReplaceAll(zf.Name, "\\", "/"))
		sheet := strings.HasPrefix(name, "xl/worksheets/sheet")
		switch {
		case (sheet || name == sharedStringsPath) && size > xmlOnDisk:
			if size > maxSheetBytes || name == sharedStringsPath && size > maxSharedBytes {
				return ErrUnpackedTooLarge
			}
		case !sheet && size > maxPartBytes:
			return ErrUnpackedTooLarge
		default:
			inMemory += size
		}
		if total > maxUnpacked || inMemory > maxInMemory {
			return ErrUnpackedTooLarge
		}
	}
	first := firstSheetPath(zr)
	for _, zf := range zr.File {
		name := strings.ToLower(zf.Name)
		var err error
		switch {
		case name == strings.ToLower(first):
			err = scanEntry(zf, "row", 0)
		case name == sharedStringsPath:
			err = scanEntry(zf, "si", maxSharedItems)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// scanEntry runs an xmlBounds over one entry.
func scanEntry(zf *zip.File, unit string, maxUnits int) error {
	rc, err := zf.Open()
	if err != nil {
		return ErrFormat
	}
	defer rc.Close()
	b := &xmlBounds{unit: unit, maxUnits: maxUnits}
	buf := make([]byte, 64<<10)
	for {
		n, err := rc.Read(buf)
		if serr := b.write(buf[:n]); serr != nil {
			return serr
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("scan %s: %w: %w", zf.Name, ErrFormat, err)
		}
	}
}

// xmlBounds scans XML as it streams, without building tokens: every text run, tag,
// comment or CDATA section must fit maxTokenBytes, the bytes between two tags of the
// unit element (row, si) must fit maxRowBytes, and with maxUnits > 0 the unit
// elements may not outnumber it. encoding/xml holds a whole token in memory, so a
// 400 MB cell is refused here before excelize reads it.
type xmlBounds struct {
	unit     string
	maxUnits int
	units    int

	inMarkup bool
	inUnit   bool
	kind     byte // inside markup: 't' a tag, 'c' a comment, 'd' CDATA
	quote    byte // the open quote inside a tag
	name     []byte
	naming   bool
	prev     [2]byte
	token    int // bytes of the current text run or markup
	sinceRow int // bytes of the current unit element
}

func (b *xmlBounds) write(p []byte) error {
	for len(p) > 0 {
		if !b.inMarkup {
			i := bytes.IndexByte(p, '<')
			if i < 0 {
				i = len(p)
			}
			if err := b.grow(i); err != nil {
				return err
			}
			if i == len(p) {
				return nil
			}
			b.inMarkup, b.kind, b.quote, b.name, b.naming, b.token = true, 't', 0, b.name[:0], true, 0
			p = p[i+1:]
			continue
		}
		n, err := b.markup(p)
		if err != nil {
			return err
		}
		p = p[n:]
	}
	return nil
}

// grow counts n bytes of the current token and row.
func (b *xmlBounds) grow(n int) error {
	b.token += n
	if b.inUnit {
		b.sinceRow += n
	}
	if b.token > maxTokenBytes || b.sinceRow > maxRowBytes {
		return ErrTooLong
	}
	return nil
}

// markup consumes bytes of a tag, comment or CDATA section up to its end and
// returns how many it consumed.
func (b *xmlBounds) markup(p []byte) (int, error) {
	for i, c := range p {
		if err := b.grow(1); err != nil {
			return i, err
		}
		if b.naming {
			b.addName(c)
		}
		end := false
		switch b.kind {
		case 't':
			switch {
			case b.quote != 0:
				if c == b.quote {
					b.quote = 0
				}
			case c == '"' || c == '\'':
				b.quote = c
			case c == '>':
				end = true
			}
		case 'c':
			end = c == '>' && b.prev == [2]byte{'-', '-'}
		case 'd':
			end = c == '>' && b.prev == [2]byte{']', ']'}
		}
		selfClosing := b.prev[1] == '/'
		b.prev = [2]byte{b.prev[1], c}
		if end {
			b.inMarkup, b.token = false, 0
			return i + 1, b.endTag(selfClosing)
		}
	}
	return len(p), nil
}

// addName collects the start of a tag's name and tells comments and CDATA apart.
func (b *xmlBounds) addName(c byte) {
	if c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '>' || c == '/' && len(b.name) > 0 || len(b.name) >= 16 {
		b.naming = false
		return
	}
	b.name = append(b.name, c)
	switch string(b.name) {
	case "!--":
		b.kind, b.naming = 'c', false
	case "![CDATA[":
		b.kind, b.naming = 'd', false
	}
}

// endTag starts or ends a unit element when its tag ends, and counts the units.
func (b *xmlBounds) endTag(selfClosing bool) error {
	if b.kind != 't' {
		return nil
	}
	name := string(bytes.TrimPrefix(b.name, []byte("/")))
	if i := strings.IndexByte(name, ':'); i >= 0 {
		name = name[i+1:]
	}
	if name != b.unit {
		return nil
	}
	b.sinceRow = 0
	if bytes.HasPrefix(b.name, []byte("/")) {
		b.inUnit = false
		return nil
	}
	b.inUnit = !selfClosing
	if b.units++; b.maxUnits > 0 && b.units > b.maxUnits {
		return ErrUnpackedTooLarge
	}
	return nil
}

// errRecordTooLong marks a csv record over maxRowBytes.
var errRecordTooLong = errors.New("csv record too long")

// recordBound passes a csv stream through and fails once a record (a line, or
// several inside a quoted field) passes maxRowBytes, so that encoding/csv never
// holds an endless line. Its quoting follows encoding/csv with LazyQuotes: a field
// is quoted only when it starts with a quote.
type recordBound struct {
	r     io.Reader
	comma byte
	state byte // 's' at a field's start, 'u' unquoted, 'q' quoted, 'e' a quote in a quoted field
	n     int
}

func (rb *recordBound) Read(p []byte) (int, error) {
	n, err := rb.r.Read(p)
	for _, c := range p[:n] {
		rb.step(c)
		if rb.n++; rb.n > maxRowBytes {
			return 0, errRecordTooLong
		}
	}
	return n, err
}

func (rb *recordBound) step(c byte) {
	switch {
	case rb.state == 'q':
		if c == '"' {
			rb.state = 'e'
		}
	case rb.state == 'e' && c == '"':
		rb.state = 'q' // an escaped quote
	case c == '\n':
		rb.state, rb.n = 's', 0
	case c == rb.comma:
		rb.state = 's'
	case rb.state == 's' && c == '"':
		rb.state = 'q'
	case rb.state == 'e' && c != '\r':
		rb.state = 'q' // a lazy quote inside a quoted field
	default:
		rb.state = 'u'
	}
}
