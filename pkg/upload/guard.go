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
// The reader (sheetSource) streams the first sheet and holds the shared-strings
// table's text compactly; no other part is read beyond the workbook's few
// kilobytes. The central directory's sizes are checked before anything is read,
// archive/zip fails a read past an entry's declared size, and the reader bounds
// every token, row and shared-strings item as it streams, so what is really
// decompressed and held stays within the same bounds.
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
	// maxSharedBytes bounds the shared-strings table unpacked, whatever its items:
	// its text is held in memory while the sheet streams (sharedStrings), in one
	// allocation of at most this size. maxSharedItems bounds its items (at most
	// two distinct texts per row of a full sheet, and a header row).
	maxSharedBytes = 64 << 20
	maxSharedItems = 2*MaxRecords + maxSheetCols
	// maxPartBytes bounds any other entry (styles, themes, images).
	maxPartBytes = 8 << 20
	// maxInMemory bounds all the small entries together.
	maxInMemory = 32 << 20
	// maxUnpacked bounds the whole archive unpacked.
	maxUnpacked = 3 << 29 // 1.5 GB
	// maxEntries bounds the entries of an archive.
	maxEntries = 10000
	// xmlOnDisk is the size from which a sheet or the shared-strings table counts
	// as a big streamed part rather than a small one.
	xmlOnDisk = 1 << 20
)

// Persian messages of the bounds (file errors, spec §5 "processing error" family).
const (
	MsgUnpackedTooLarge = "حجم محتوای فایل پس از باز شدن بیش از حد مجاز است"
	MsgSharedTooLarge   = "متن‌های فایل اکسل پس از باز شدن بیش از ۶۴ مگابایت است؛ فایل را در چند بخش کوچک‌تر یا با قالب CSV بارگذاری کنید"
	MsgTooLong          = "یکی از ردیف‌ها یا خانه‌های فایل بیش از حد طولانی است (حداکثر ۳۲٬۷۶۷ نویسه در هر خانه)"
)

// The bound errors.
var (
	ErrUnpackedTooLarge = &FileError{MsgUnpackedTooLarge}
	ErrTooLong          = &FileError{MsgTooLong}
	ErrSharedTooLarge   = &FileError{MsgSharedTooLarge}
)

const sharedStringsPath = "xl/sharedstrings.xml"

// checkDirectory refuses an xlsx whose central directory declares entries beyond
// the bounds. It runs before any part is read.
func checkDirectory(zr *zip.Reader) error {
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
			if name == sharedStringsPath && size > maxSharedBytes {
				return ErrSharedTooLarge
			}
			if size > maxSheetBytes {
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
// 400 MB cell is refused here before anything holds it. It scans the worksheets
// the reader does not read (xmlReader bounds the ones it reads the same way).
type xmlBounds struct {
	unit     string
	maxUnits int
	units    int

	inMarkup    bool
	inUnit      bool
	kind        byte // inside markup: 't' a tag, 'c' a comment, 'd' CDATA
	quote       byte // the open quote inside a tag
	name        []byte
	naming      bool
	tail        [2]byte // the last two bytes of the markup read so far
	selfClosing bool
	token       int // bytes of the current text run or markup
	sinceRow    int // bytes of the current unit element
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
			b.tail = [2]byte{}
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
// returns how many it consumed. Only a tag's name is read byte by byte; the rest is
// searched for its end.
func (b *xmlBounds) markup(p []byte) (int, error) {
	i := 0
	for i < len(p) && b.naming && b.addName(p[i]) {
		b.tail = [2]byte{b.tail[1], p[i]}
		i++
	}
	var n int
	var end bool
	if b.kind == 't' {
		n, end = b.tagEnd(p[i:])
	} else {
		n, end = b.sectionEnd(p[i:])
	}
	if n > 0 {
		q := p[i : i+n]
		b.tail = [2]byte{b.tail[1], q[n-1]}
		if n > 1 {
			b.tail[0] = q[n-2]
		}
	}
	i += n
	if err := b.grow(i); err != nil {
		return i, err
	}
	if !end {
		return i, nil
	}
	b.inMarkup, b.token = false, 0
	return i, b.endTag()
}

// before is the byte k bytes before p[at] (k = 1 or 2), from the tail when p
// does not reach back that far.
func (b *xmlBounds) before(p []byte, at, k int) byte {
	if at-k >= 0 {
		return p[at-k]
	}
	return b.tail[2+at-k]
}

// tagEnd finds the '>' that ends a tag, outside quoted attribute values.
func (b *xmlBounds) tagEnd(p []byte) (int, bool) {
	i := 0
	for {
		if b.quote != 0 {
			j := bytes.IndexByte(p[i:], b.quote)
			if j < 0 {
				return len(p), false
			}
			i, b.quote = i+j+1, 0
			continue
		}
		j := tagStop(p[i:])
		if j < 0 {
			return len(p), false
		}
		if c := p[i+j]; c != '>' {
			i, b.quote = i+j+1, c
			continue
		}
		b.selfClosing = b.before(p, i+j, 1) == '/'
		return i + j + 1, true
	}
}

// tagStop is the index of the first quote or '>' in p, or -1 (a plain loop: tags
// are short, and bytes.IndexAny builds its set on every call).
func tagStop(p []byte) int {
	for i, c := range p {
		if c == '>' || c == '"' || c == '\'' {
			return i
		}
	}
	return -1
}

// sectionEnd finds the "-->" or "]]>" that ends a comment or CDATA section.
func (b *xmlBounds) sectionEnd(p []byte) (int, bool) {
	mark := byte('-')
	if b.kind == 'd' {
		mark = ']'
	}
	for i := 0; ; {
		j := bytes.IndexByte(p[i:], '>')
		if j < 0 {
			return len(p), false
		}
		at := i + j
		if b.before(p, at, 1) == mark && b.before(p, at, 2) == mark {
			return at + 1, true
		}
		i = at + 1
	}
}

// addName collects the start of a tag's name and tells comments and CDATA apart.
// It reports whether c belonged to the name (false: c ends it, and is tag content).
func (b *xmlBounds) addName(c byte) bool {
	if c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '>' || c == '/' && len(b.name) > 0 || len(b.name) >= 16 {
		b.naming = false
		return false
	}
	b.name = append(b.name, c)
	switch string(b.name) {
	case "!--":
		b.kind, b.naming = 'c', false
	case "![CDATA[":
		b.kind, b.naming = 'd', false
	}
	return true
}

// endTag starts or ends a unit element when its tag ends, and counts the units.
func (b *xmlBounds) endTag() error {
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
	b.inUnit = !b.selfClosing
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

// Read reads from the csv stream and fails with errRecordTooLong once a record passes maxRowBytes.
func (rb *recordBound) Read(p []byte) (int, error) {
	n, err := rb.r.Read(p)
	if !rb.skim(p[:n]) {
		for _, c := range p[:n] {
			rb.step(c)
			if rb.n++; rb.n > maxRowBytes {
				return 0, errRecordTooLong
			}
		}
	}
	if rb.n > maxRowBytes {
		return 0, errRecordTooLong
	}
	return n, err
}

// skim handles, without a byte loop, a chunk shorter than a record's bound that
// holds no quote outside a quoted field: only the record running on from the last
// chunk and the one left open at its end can be long. It reports whether it did.
func (rb *recordBound) skim(p []byte) bool {
	if len(p) == 0 || len(p) > maxRowBytes || rb.state == 'q' || rb.state == 'e' || bytes.IndexByte(p, '"') >= 0 {
		return len(p) == 0
	}
	switch first := bytes.IndexByte(p, '\n'); {
	case first < 0:
		rb.n += len(p)
	case rb.n+first > maxRowBytes:
		rb.n += first // the record running on is too long
	default:
		rb.n = len(p) - 1 - bytes.LastIndexByte(p, '\n')
	}
	rb.state = 'u'
	if last := p[len(p)-1]; last == '\n' || last == rb.comma {
		rb.state = 's'
	}
	return true
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
