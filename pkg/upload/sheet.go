package upload

import (
	"archive/zip"
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Excel's sheet bounds.
const (
	maxSheetRows = 1 << 20 // rows of a sheet (1,048,576)
	maxSheetCols = 1 << 14 // columns of a sheet (XFD)
)

// sheetSource streams the rows of an xlsx's first sheet straight from the archive
// with xmlReader, resolving shared strings from a compact table. It reads the raw
// values excelize's RawCellValue read gives (docs/architecture.md §9: a formatted
// read turns 989121234567 into "9.89121E+11"): the text of string cells (shared,
// inline, rich-text runs joined, phonetic runs left out), a formula's cached
// value, and numbers, dates and booleans as stored.
type sheetSource struct {
	zr   *zip.ReadCloser
	rc   io.ReadCloser
	x    *xmlReader
	sst  *sharedStrings
	tok  xmlToken
	no   int // the last row handed out
	est  int // estimated rows of the sheet, for progress
	inSD bool
	done bool

	// A row read ahead of a gap of empty rows.
	held   []string
	heldNo int

	row  rowBuild
	cell cellBuild
}

// rowBuild collects one row's cells: their bytes in one buffer, turned into one
// string when the row ends (one allocation a row).
type rowBuild struct {
	arena []byte
	spans [][2]int // each cell's bytes in arena; a blank is {0, 0}
	col   int      // the last cell's column (1-based)
}

// cellBuild collects one cell.
type cellBuild struct {
	typ      []byte
	v, is    []byte
	inV      bool
	inIS     bool
	inT      bool
	hasIS    bool
	formula  bool
	phonetic int
}

// openSheet opens the first sheet of an xlsx: the archive's directory is checked,
// the shared strings are loaded and the other worksheets are scanned for over-long
// tokens (a worksheet nobody reads cannot hurt, but a file carrying a bomb is
// refused whole, as it always was). The first sheet and the shared strings are
// bounded as they are read: every token by xmlReader, a row by cells, the table's
// items by loadSharedStrings.
func openSheet(p string) (*sheetSource, error) {
	zr, err := zip.OpenReader(p)
	if err != nil {
		return nil, ErrFormat
	}
	s, err := startSheet(zr)
	if err != nil {
		_ = zr.Close()
		return nil, err
	}
	return s, nil
}

func startSheet(zr *zip.ReadCloser) (*sheetSource, error) {
	if err := checkDirectory(&zr.Reader); err != nil {
		return nil, err
	}
	first, ok := firstSheet(&zr.Reader)
	if !ok {
		return nil, ErrEmpty
	}
	sheet := zipEntry(&zr.Reader, first)
	if sheet == nil {
		return nil, fmt.Errorf("%w: %w", ErrFormat, errNoSheet)
	}
	scanned := make(chan error, 1)
	go func() { scanned <- scanOtherSheets(&zr.Reader, sheet) }()
	sst, err := loadSharedStrings(&zr.Reader)
	if serr := <-scanned; serr != nil {
		return nil, serr
	}
	if err != nil {
		return nil, err
	}
	rc, err := sheet.Open()
	if err != nil {
		return nil, ErrFormat
	}
	x := newXMLReader(rc)
	return &sheetSource{zr: zr, rc: rc, x: x, sst: sst, est: estimateSheetRows(&zr.Reader)}, nil
}

// zipEntry finds an entry by name as excelize does: either slash, any case.
func zipEntry(zr *zip.Reader, name string) *zip.File {
	name = strings.ToLower(name)
	for _, zf := range zr.File {
		if strings.ToLower(strings.ReplaceAll(zf.Name, "\\", "/")) == name {
			return zf
		}
	}
	return nil
}

// scanOtherSheets runs the xmlBounds scan over every worksheet but the one read.
func scanOtherSheets(zr *zip.Reader, read *zip.File) error {
	for _, zf := range zr.File {
		name := strings.ToLower(strings.ReplaceAll(zf.Name, "\\", "/"))
		if zf != read && strings.HasPrefix(name, "xl/worksheets/sheet") {
			if err := scanEntry(zf, "row", 0); err != nil {
				return err
			}
		}
	}
	return nil
}

// Next returns the next row and its number, handing out empty rows for gaps in the sheet.
func (s *sheetSource) Next() ([]string, int, error) {
	if s.held != nil || s.heldNo > 0 {
		return s.fromHeld()
	}
	cells, r, err := s.readRow()
	if err != nil {
		return nil, 0, err
	}
	no := s.no + 1
	if r > no {
		no = r
	}
	if no > maxSheetRows {
		return nil, 0, ErrTooManyRows
	}
	if no > s.no+1 {
		s.held, s.heldNo = cells, no
		return s.fromHeld()
	}
	s.no = no
	return cells, no, nil
}

// fromHeld hands out the empty rows before a held row, then the row.
func (s *sheetSource) fromHeld() ([]string, int, error) {
	s.no++
	if s.no < s.heldNo {
		return nil, s.no, nil
	}
	cells := s.held
	s.held, s.heldNo = nil, 0
	return cells, s.no, nil
}

// readRow reads the next row element: its cells and its r attribute (0 without).
func (s *sheetSource) readRow() ([]string, int, error) {
	for !s.done {
		if err := s.x.next(&s.tok); err == io.EOF {
			break
		} else if err != nil {
			return nil, 0, err
		}
		t := &s.tok
		switch {
		case !s.inSD:
			s.inSD = t.kind == tokStart && string(t.name) == "sheetData"
		case t.kind == tokEnd && string(t.name) == "sheetData":
			s.done = true
		case t.kind != tokText && string(t.name) == "row":
			r, err := rowNumber(attr(t.attrs, "r"))
			if err != nil || t.kind == tokEmpty {
				return nil, r, err
			}
			cells, err := s.cells()
			return cells, r, err
		}
	}
	return nil, 0, io.EOF
}

// rowNumber reads a row's r attribute; 0 without one.
func rowNumber(v []byte) (int, error) {
	if len(v) == 0 {
		return 0, nil
	}
	n, err := strconv.Atoi(string(bytes.TrimSpace(v)))
	if err != nil || n < 0 {
		return 0, fmt.Errorf("row number %q: %w", v, ErrFormat)
	}
	if n > maxSheetRows {
		return 0, ErrTooManyRows
	}
	return n, nil
}

// cells reads the cells of a row up to its end tag.
func (s *sheetSource) cells() ([]string, error) {
	s.row.arena, s.row.spans, s.row.col = s.row.arena[:0], s.row.spans[:0], 0
	start := s.x.offset()
	for {
		if s.x.offset()-start > maxRowBytes {
			return nil, ErrTooLong
		}
		if err := s.x.next(&s.tok); err == io.EOF {
			return s.row.strings(), nil // a sheet cut short: what was read
		} else if err != nil {
			return nil, err
		}
		t := &s.tok
		if t.kind == tokEnd && string(t.name) == "row" {
			return s.row.strings(), nil
		}
		if err := s.cellToken(t); err != nil {
			return nil, err
		}
	}
}

// cellToken takes one token inside a row.
func (s *sheetSource) cellToken(t *xmlToken) error {
	c := &s.cell
	if t.kind == tokText || t.kind == tokCDATA {
		switch {
		case c.inV:
			c.v = cellText(c.v, t)
		case c.inT && c.phonetic == 0:
			c.is = cellText(c.is, t)
		}
		return nil
	}
	open := t.kind != tokEnd
	switch string(t.name) {
	case "c":
		if t.kind == tokEnd {
			return s.endCell()
		}
		if err := s.startCell(t); err != nil || t.kind == tokStart {
			return err
		}
		return s.endCell()
	case "v":
		c.inV = t.kind == tokStart
	case "f":
		c.formula = c.formula || open
	case "is":
		c.inIS, c.hasIS = t.kind == tokStart, c.hasIS || open
	case "t":
		c.inT = c.inIS && t.kind == tokStart
	case "rPh":
		c.phonetic = phonetic(c.phonetic, t.kind)
	}
	return nil
}

// phonetic is the depth of phonetic runs (rPh) after a tag of one.
func phonetic(depth int, kind xmlTokenKind) int {
	switch {
	case kind == tokStart:
		return depth + 1
	case kind == tokEnd && depth > 0:
		return depth - 1
	}
	return depth
}

// cellText appends a text or CDATA token.
func cellText(dst []byte, t *xmlToken) []byte {
	if t.kind == tokCDATA {
		return append(dst, t.text...)
	}
	return appendText(dst, t.text)
}

// startCell begins a cell: its column from its r attribute, else the one after
// the last cell's.
func (s *sheetSource) startCell(t *xmlToken) error {
	c := &s.cell
	*c = cellBuild{typ: append(c.typ[:0], attr(t.attrs, "t")...), v: c.v[:0], is: c.is[:0]}
	s.row.col++
	if ref := attr(t.attrs, "r"); len(ref) > 0 {
		col, err := refColumn(ref)
		if err != nil {
			return err
		}
		s.row.col = col
	}
	return nil
}

// refColumn is the column of a cell reference such as "B12".
func refColumn(ref []byte) (int, error) {
	col, i := 0, 0
	for ; i < len(ref); i++ {
		c := ref[i] | 0x20 // lower case
		if c < 'a' || c > 'z' {
			break
		}
		if col = col*26 + int(c-'a') + 1; col > maxSheetCols {
			return 0, fmt.Errorf("cell %q: %w", ref, ErrFormat)
		}
	}
	if i == 0 || i == len(ref) {
		return 0, fmt.Errorf("cell %q: %w", ref, ErrFormat)
	}
	for _, d := range ref[i:] {
		if d < '0' || d > '9' {
			return 0, fmt.Errorf("cell %q: %w", ref, ErrFormat)
		}
	}
	return col, nil
}

// endCell adds the cell to the row when it has a value or a formula.
func (s *sheetSource) endCell() error {
	c := &s.cell
	r := &s.row
	from := len(r.arena)
	switch {
	case string(c.typ) == "s":
		if len(c.v) > 0 {
			r.arena = append(r.arena, s.sst.get(string(bytes.TrimSpace(c.v)))...)
		}
	case string(c.typ) == "inlineStr" && c.hasIS:
		r.arena = appendBSTR(append(r.arena, c.is...), from)
	default:
		r.arena = append(r.arena, c.v...)
	}
	if len(r.arena) == from && !c.formula {
		return nil
	}
	for len(r.spans) < r.col-1 {
		r.spans = append(r.spans, [2]int{})
	}
	r.spans = append(r.spans, [2]int{from, len(r.arena)})
	*c = cellBuild{typ: c.typ[:0], v: c.v[:0], is: c.is[:0]}
	return nil
}

// strings turns the row into cells sharing one string.
func (r *rowBuild) strings() []string {
	if len(r.spans) == 0 {
		return nil
	}
	all := string(r.arena)
	cells := make([]string, len(r.spans))
	for i, sp := range r.spans {
		cells[i] = all[sp[0]:sp[1]]
	}
	return cells
}

// Done estimates the fraction read from the rows handed out over the sheet's estimated rows.
func (s *sheetSource) Done() float64 {
	if s.est <= 0 {
		return 0
	}
	return min(1, float64(s.no)/float64(s.est))
}

// Close closes the sheet entry and then the zip file.
func (s *sheetSource) Close() error {
	err := s.rc.Close()
	if cerr := s.zr.Close(); err == nil {
		err = cerr
	}
	return err
}
