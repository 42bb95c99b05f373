package upload

import (
	"hash/maphash"
	"io"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/xuri/excelize/v2"

	"github.com/chapar/chapar/pkg/sms"
)

// Column is one column of a file, for the keyword editor and the report.
type Column struct {
	Index int    `json:"index"`
	Key   string `json:"key"`   // the spreadsheet letter: A, B, …
	Title string `json:"title"` // the header text, or empty
}

// OperatorCount is one operator's share of a file's sendable rows. Parts are filled
// for peer-to-peer files only: the sum of the rows' parts without and with the
// «لغو۱۱» footer.
type OperatorCount struct {
	Operator      string `json:"operator"`
	Recipients    int    `json:"recipients"`
	Parts         int    `json:"parts"`
	PartsCancel11 int    `json:"parts_cancel11"`
}

// Row is a valid data row, the first with its number (peer-to-peer: with its number
// and text).
type Row struct {
	No     int
	Mobile string
	Cells  []string
}

// RowError is a data row that cannot be sent.
type RowError struct {
	No    int
	Kind  Kind
	Value string
}

// Counts are the figures of a scan.
type Counts struct {
	Records    int // data rows: header and blank rows excluded
	Valid      int
	Invalid    int
	Duplicates int
}

// progressRows is how often (in records) the scan considers a progress report.
const progressRows = 4096

// sampleRows is how many data rows the column detection looks at.
const sampleRows = 1000

// maxValue is the longest cell value kept with a row error.
const maxValue = 200

// maxFileCells bounds the cells a file's rows keep (a full file of 32 columns):
// a small sheet of cells far to the right must not write billions of empty ones.
const maxFileCells = 32 * MaxRecords

type rawRow struct {
	cells []string
	no    int
}

// scanner turns a source's rows into valid unique rows and row errors. It reads a
// sample first to find the header and the columns, then streams.
type scanner struct {
	src      rowSource
	p2p      bool
	limit    int
	classify func(mobile string) string
	onError  func(RowError) error
	// tick, when set, is told the records read every progressRows records.
	tick func(records int)

	cells     int // cells kept so far, bounded by maxFileCells
	pending   []rawRow
	header    []string
	mobileCol int
	textCol   int // -1: none
	width     int

	seen     map[uint64]struct{}
	seenPair map[[2]uint64]struct{}
	seed     maphash.Seed
	counts   Counts
	perOp    map[string]*OperatorCount
}

// newScanner reads the sample and finds the columns. classify may be nil.
func newScanner(src rowSource, purpose string, classify func(string) string) (*scanner, error) {
	s := &scanner{src: src, p2p: purpose == PurposePeerToPeer, limit: MaxRecords, classify: classify,
		textCol: -1, seen: map[uint64]struct{}{}, seed: maphash.MakeSeed(), perOp: map[string]*OperatorCount{}}
	if s.p2p {
		s.seen = nil
		s.seenPair = map[[2]uint64]struct{}{}
	}
	for len(s.pending) <= sampleRows {
		r, err := s.read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		s.pending = append(s.pending, r)
	}
	if len(s.pending) > 0 && isHeader(s.pending[0].cells) {
		s.header = s.pending[0].cells
		s.pending = s.pending[1:]
	}
	if len(s.pending) == 0 {
		return nil, ErrEmpty
	}
	if err := s.detect(); err != nil {
		return nil, err
	}
	return s, nil
}

// read returns the next non-blank row, its cells trimmed.
func (s *scanner) read() (rawRow, error) {
	for {
		cells, no, err := s.src.Next()
		if err != nil {
			return rawRow{}, err
		}
		width := 0 // up to the last non-blank cell: a cell far right makes no empty ones
		for i, c := range cells {
			if len(c) > MaxCellChars && utf8.RuneCountInString(c) > MaxCellChars {
				return rawRow{}, ErrTooLong
			}
			c = strings.TrimFunc(c, isBlank)
			cells[i] = c
			if c != "" {
				width = i + 1
			}
		}
		if width == 0 {
			continue
		}
		if s.cells += width; s.cells > maxFileCells {
			return rawRow{}, ErrUnpackedTooLarge
		}
		return rawRow{cells: cells[:width], no: no}, nil
	}
}

// Next returns the next valid unique row; io.EOF after the last. Row errors go to
// onError. ErrTooManyRows stops the scan at the first row over the limit.
func (s *scanner) Next() (Row, error) {
	for {
		var r rawRow
		if len(s.pending) > 0 {
			r, s.pending[0] = s.pending[0], rawRow{}
			s.pending = s.pending[1:]
		} else {
			var err error
			if r, err = s.read(); err != nil {
				return Row{}, err
			}
		}
		if s.counts.Records++; s.counts.Records > s.limit {
			return Row{}, ErrTooManyRows
		}
		if s.tick != nil && s.counts.Records%progressRows == 0 {
			s.tick(s.counts.Records)
		}
		s.width = max(s.width, len(r.cells))
		mobile, kind := ParseMobile(cell(r.cells, s.mobileCol))
		var text string
		if kind == "" && s.p2p {
			text = cell(r.cells, s.textCol)
			switch {
			case text == "":
				kind = KindEmpty
			case utf8.RuneCountInString(text) > sms.MaxTextRunes:
				kind = KindOther
			}
		}
		if kind != "" {
			s.counts.Invalid++
			if s.onError != nil {
				if err := s.onError(RowError{No: r.no, Kind: kind, Value: clip(cell(r.cells, s.mobileCol), maxValue)}); err != nil {
					return Row{}, err
				}
			}
			continue
		}
		if s.duplicate(mobile, text) {
			s.counts.Duplicates++
			continue
		}
		s.counts.Valid++
		s.count(mobile, text, 1)
		return Row{No: r.no, Mobile: mobile, Cells: r.cells}, nil
	}
}

// duplicate records a number (peer-to-peer: a number and text) and reports whether
// it was seen before. The set holds the number as an integer (and a 64-bit hash of
// the text), so a million rows cost a few tens of megabytes.
func (s *scanner) duplicate(mobile, text string) bool {
	k := mobileKey(mobile)
	if s.p2p {
		pk := [2]uint64{k, maphash.String(s.seed, text)}
		if _, ok := s.seenPair[pk]; ok {
			return true
		}
		s.seenPair[pk] = struct{}{}
		return false
	}
	if _, ok := s.seen[k]; ok {
		return true
	}
	s.seen[k] = struct{}{}
	return false
}

// count adds (sign 1) or removes (sign −1) a sendable row from the per-operator figures.
func (s *scanner) count(mobile, text string, sign int) {
	if s.classify == nil {
		return
	}
	op := s.classify(mobile)
	c := s.perOp[op]
	if c == nil {
		c = &OperatorCount{Operator: op}
		s.perOp[op] = c
	}
	c.Recipients += sign
	if s.p2p {
		c.Parts += sign * sms.Count(text, false).Parts
		c.PartsCancel11 += sign * sms.Count(text, true).Parts
	}
}

// Columns are the file's columns: as wide as its widest row or its header.
func (s *scanner) Columns() []Column {
	n := max(s.width, len(s.header), s.mobileCol+1, s.textCol+1)
	out := make([]Column, n)
	for i := range out {
		key, _ := excelize.ColumnNumberToName(i + 1)
		out[i] = Column{Index: i, Key: key, Title: cell(s.header, i)}
	}
	return out
}

func cell(cells []string, i int) string {
	if i >= 0 && i < len(cells) {
		return cells[i]
	}
	return ""
}

// isHeader reports whether a first row is titles rather than data: no cell holds a
// mobile number and some cell holds letters.
func isHeader(cells []string) bool {
	letters := false
	for _, c := range cells {
		if _, kind := ParseMobile(c); kind == "" {
			return false
		}
		if strings.IndexFunc(c, unicode.IsLetter) >= 0 {
			letters = true
		}
	}
	return letters
}

// Header titles of the mobile and message columns, compared after normalizeTitle.
var (
	mobileTitles = []string{"موبایل", "شمارهموبایل", "شمارهیموبایل", "تلفنهمراه", "شمارهتلفنهمراه", "همراه",
		"شمارههمراه", "شماره", "شمارهها", "شمارهتلفن", "تلفن", "گیرنده", "mobile", "mobilenumber", "mobileno",
		"phone", "phonenumber", "number", "numbers", "cell", "cellphone", "cellnumber", "tel", "msisdn", "receptor",
		"recipient", "to"}
	mobileWords = []string{"موبایل", "همراه", "mobile", "phone", "cell", "شماره"}
	textTitles  = []string{"پیام", "متن", "متنپیام", "متنپیامک", "پیامک", "message", "text", "sms", "body",
		"content", "msg"}
	textWords = []string{"پیام", "متن", "message", "text"}
)

// normalizeTitle lowers a header and drops spaces, joiners and punctuation; Arabic
// yeh and kaf become Persian.
func normalizeTitle(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		switch {
		case r == 'ي' || r == 'ى':
			b.WriteRune('ی')
		case r == 'ك':
			b.WriteRune('ک')
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// titleColumn returns the first column whose header is one of exact, else the first
// whose header contains words[0], then words[1] and so on; −1 when none does. skip
// is a column not to return.
func titleColumn(header []string, exact, words []string, skip int) int {
	titles := make([]string, len(header))
	for i, h := range header {
		titles[i] = normalizeTitle(h)
	}
	for i, t := range titles {
		if i != skip && t != "" && contains(exact, t) {
			return i
		}
	}
	for _, w := range words {
		for i, t := range titles {
			if i != skip && strings.Contains(t, w) {
				return i
			}
		}
	}
	return -1
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// detect finds the mobile column (and the message column of a peer-to-peer file)
// from the header, else from the sample: the column with the most mobile numbers.
func (s *scanner) detect() error {
	width := len(s.header)
	for _, r := range s.pending {
		width = max(width, len(r.cells))
	}
	valid := make([]int, width)
	filled := make([]int, width)
	wordy := make([]int, width) // cells with letters: a message column
	for _, r := range s.pending {
		for i, c := range r.cells {
			if c == "" {
				continue
			}
			filled[i]++
			if _, kind := ParseMobile(c); kind == "" {
				valid[i]++
			} else if strings.IndexFunc(c, unicode.IsLetter) >= 0 {
				wordy[i]++
			}
		}
	}
	best := -1
	for i := range valid {
		if valid[i] > 0 && (best < 0 || valid[i] > valid[best]) {
			best = i
		}
	}
	s.mobileCol = titleColumn(s.header, mobileTitles, mobileWords, -1)
	if s.mobileCol >= 0 && valid[s.mobileCol] == 0 && best >= 0 {
		s.mobileCol = -1 // a title such as «شماره» over a column of row numbers
	}
	if s.mobileCol < 0 {
		if best < 0 {
			// No number anywhere: a one-column file is its mobile column (its rows
			// are row errors); in a wider one the column cannot be told.
			used := 0
			for i := range filled {
				if filled[i] > 0 {
					used++
					best = i
				}
			}
			if used != 1 {
				best = -1
			}
		}
		s.mobileCol = best
	}
	if !s.p2p {
		if s.mobileCol < 0 {
			return ErrNoMobileCol
		}
		return nil
	}
	if s.mobileCol < 0 {
		return ErrPeerToPeer
	}
	s.textCol = titleColumn(s.header, textTitles, textWords, s.mobileCol)
	if s.textCol < 0 {
		// The other column with the most words, else the most filled one.
		better := func(i, j int) bool { return wordy[i] > wordy[j] || wordy[i] == wordy[j] && filled[i] > filled[j] }
		for i := range filled {
			if i != s.mobileCol && filled[i] > 0 && (s.textCol < 0 || better(i, s.textCol)) {
				s.textCol = i
			}
		}
	}
	if s.textCol < 0 {
		return ErrPeerToPeer
	}
	return nil
}
