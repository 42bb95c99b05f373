package upload

import (
	"archive/zip"
	"io"
	"strconv"
)

// sharedStrings is an xlsx's shared-strings table held compactly: every text in one
// byte slice and where each ends, so a million distinct texts cost their bytes
// and four more each rather than a string header and an allocation.
type sharedStrings struct {
	data []byte
	ends []uint32
}

// get returns the text of item i (a decimal index); empty when out of range, as
// excelize reads it.
func (s *sharedStrings) get(i string) []byte {
	n, err := strconv.Atoi(i)
	if err != nil || n < 0 || n >= len(s.ends) {
		return nil
	}
	from := uint32(0)
	if n > 0 {
		from = s.ends[n-1]
	}
	return s.data[from:s.ends[n]]
}

// loadSharedStrings reads the archive's shared-strings table, if any: each item
// within a row's bound, at most maxSharedItems items (the directory check bounds
// its size to maxSharedBytes, archive/zip fails a read past it, xmlReader bounds
// its tokens). The text, never longer than the XML, is held in one allocation of
// the declared size, so reading it never regrows the buffer.
func loadSharedStrings(zr *zip.Reader) (*sharedStrings, error) {
	s := &sharedStrings{}
	zf := zipEntry(zr, sharedStringsPath)
	if zf == nil {
		return s, nil
	}
	rc, err := zf.Open()
	if err != nil {
		return nil, ErrFormat
	}
	defer rc.Close()
	s.data = make([]byte, 0, min(zf.UncompressedSize64, maxSharedBytes))
	x := newXMLReader(rc)
	var st sstState
	var t xmlToken
	for {
		if err := x.next(&t); err == io.EOF {
			return s, nil
		} else if err != nil {
			return nil, err
		}
		s.take(&st, &t)
		if err := st.bound(x.offset(), len(s.ends)); err != nil {
			return nil, err
		}
	}
}

// bound refuses an item over a row's bound and more items than maxSharedItems.
func (st *sstState) bound(offset int64, items int) error {
	if !st.inSI {
		st.at = offset
	}
	if offset-st.at > maxRowBytes {
		return ErrTooLong
	}
	if items > maxSharedItems {
		return ErrUnpackedTooLarge
	}
	return nil
}

// sstState is where the shared-strings reader is: inside an item, a text element,
// a phonetic run (whose text is not the cell's).
type sstState struct {
	inSI, inT bool
	phonetic  int
	from      int   // where the item's text starts in data
	at        int64 // the stream offset where the item started
}

// take applies one token of the table.
func (s *sharedStrings) take(st *sstState, t *xmlToken) {
	switch t.kind {
	case tokText, tokCDATA:
		if st.inT && st.phonetic == 0 {
			s.data = cellText(s.data, t)
		}
		return
	}
	switch string(t.name) {
	case "sst":
		if t.kind == tokStart && s.ends == nil {
			n, _ := strconv.Atoi(string(attr(t.attrs, "uniqueCount")))
			s.ends = make([]uint32, 0, min(max(n, 0), maxSharedItems))
		}
	case "si":
		if t.kind != tokEnd {
			st.inSI, st.from = true, len(s.data)
		}
		if t.kind != tokStart {
			st.inSI = false
			s.data = appendBSTR(s.data, st.from)
			s.ends = append(s.ends, uint32(len(s.data)))
		}
	case "t":
		st.inT = st.inSI && t.kind == tokStart
	case "rPh":
		st.phonetic = phonetic(st.phonetic, t.kind)
	}
}
