package sms

import (
	"errors"
	"fmt"
	"unicode/utf8"
)

// Encoding is the alphabet a message is sent in.
type Encoding uint8

// The two alphabets a message can be sent in.
const (
	GSM7 Encoding = iota // GSM 03.38 default alphabet with its extension table
	UCS2                 // UTF-16 big-endian
)

// SMPP data_coding values and the esm_class flag used by Split.
const (
	DataCodingGSM7 byte = 0x00 // SMSC default alphabet: GSM 03.38, one septet per byte
	DataCodingUCS2 byte = 0x08 // UCS-2 / UTF-16 big-endian
	ESMClassUDHI   byte = 0x40 // short_message starts with a user data header
)

// Part capacities, in septets (GSM-7) or UTF-16 units (UCS-2).
const (
	SinglePartGSM7 = 160
	MultiPartGSM7  = 153
	SinglePartUCS2 = 70
	MultiPartUCS2  = 67
)

// MaxParts is the most parts a concatenated message can have: the part count
// is one byte of the user data header.
const MaxParts = 255

// MaxTextRunes is the message editor's maximum (spec §9): characters of the
// user's text, not counting the cancel-11 footer.
const MaxTextRunes = 2700

// Cancel11Footer is the opt-out text appended to messages from advertising
// lines: a line break and «لغو۱۱», 6 characters (spec §9).
const Cancel11Footer = "\nلغو۱۱"

// ErrTooLong is returned by CheckLength for a text over MaxTextRunes.
var ErrTooLong = errors.New("متن پیامک نباید بیشتر از ۲۷۰۰ کاراکتر باشد")

// String returns "gsm7" or "ucs2", the names used by the API.
func (e Encoding) String() string {
	if e == UCS2 {
		return "ucs2"
	}
	return "gsm7"
}

// MarshalText encodes e as its String form.
func (e Encoding) MarshalText() ([]byte, error) {
	if e > UCS2 {
		return nil, fmt.Errorf("کدگذاری پیامک نامعتبر است: %d", uint8(e))
	}
	return []byte(e.String()), nil
}

// UnmarshalText parses "gsm7" or "ucs2".
func (e *Encoding) UnmarshalText(b []byte) error {
	switch string(b) {
	case "gsm7":
		*e = GSM7
	case "ucs2":
		*e = UCS2
	default:
		return fmt.Errorf("کدگذاری پیامک نامعتبر است (gsm7 یا ucs2)")
	}
	return nil
}

// DataCoding returns the SMPP data_coding value for e.
func (e Encoding) DataCoding() byte {
	if e == UCS2 {
		return DataCodingUCS2
	}
	return DataCodingGSM7
}

// capacities returns the single-part and per-part (concatenated) capacity.
func (e Encoding) capacities() (single, multi int) {
	if e == UCS2 {
		return SinglePartUCS2, MultiPartUCS2
	}
	return SinglePartGSM7, MultiPartGSM7
}

// EncodingOf returns GSM7 when every character of text is in the GSM 03.38
// default alphabet or its extension table, otherwise UCS2. The empty text is
// GSM7.
func EncodingOf(text string) Encoding {
	for _, r := range text {
		if !IsGSM7(r) {
			return UCS2
		}
	}
	return GSM7
}

// Compose returns the text as sent: with Cancel11Footer appended when
// cancel11 is set.
func Compose(text string, cancel11 bool) string {
	if cancel11 {
		return text + Cancel11Footer
	}
	return text
}

// CheckLength returns ErrTooLong when text has more than MaxTextRunes
// characters.
func CheckLength(text string) error {
	if utf8.RuneCountInString(text) > MaxTextRunes {
		return ErrTooLong
	}
	return nil
}

// Stats is what the message counter shows. The JSON names are those of the
// API (calculate-price) and of testdata/segments_corpus.json.
type Stats struct {
	Encoding Encoding `json:"encoding"`
	// Characters is the length as sent, footer included: septets for GSM-7
	// (an extension character counts 2), UTF-16 units for UCS-2 (a character
	// outside the BMP, such as an emoji, counts 2).
	Characters int `json:"characters"`
	// Parts is the number of parts Split produces.
	Parts int `json:"parts"`
	// CharsLeft is the room left in the last part: its capacity (160 or 70
	// for a single part, 153 or 67 for a concatenated one) minus what it
	// holds. For the empty text it is 160.
	CharsLeft int `json:"chars_left"`
}

// measurement is one pass over a text: how it must be encoded and its
// length in both encodings.
type measurement struct {
	gsm      bool // every rune so far is GSM-7
	septets  int  // GSM-7 length, valid while gsm
	units    int  // UTF-16 length
	gsmPairs bool // an escape pair was seen
	surrPair bool // a surrogate pair was seen
}

func (m *measurement) add(s string) {
	for _, r := range s {
		if r >= 0x10000 {
			m.units += 2
			m.surrPair = true
		} else {
			m.units++
		}
		if m.gsm {
			if _, ext, ok := gsmCode(r); !ok {
				m.gsm = false
			} else if ext {
				m.septets += 2
				m.gsmPairs = true
			} else {
				m.septets++
			}
		}
	}
}

// result returns the encoding, the length in its units and whether some
// character takes two units.
func (m *measurement) result() (enc Encoding, n int, pairs bool) {
	if m.gsm {
		return GSM7, m.septets, m.gsmPairs
	}
	return UCS2, m.units, m.surrPair
}

// width returns how many units r takes in enc.
func width(enc Encoding, r rune) int {
	if enc == UCS2 {
		if r >= 0x10000 {
			return 2
		}
		return 1
	}
	if _, ext, _ := gsmCode(r); ext {
		return 2
	}
	return 1
}

// packer fills concatenated parts greedily: a character that does not fit
// in the room left starts the next part, so an escape or surrogate pair is
// never split.
type packer struct {
	capacity int
	parts    int
	used     int // units in the last part
}

// add places a character of w units and reports whether it starts a part.
func (p *packer) add(w int) bool {
	if p.parts == 0 || p.used+w > p.capacity {
		p.parts++
		p.used = w
		return true
	}
	p.used += w
	return false
}

func (p *packer) addString(enc Encoding, s string) {
	for _, r := range s {
		p.add(width(enc, r))
	}
}

// Count returns the counter figures for text as sent: with the cancel-11
// footer when cancel11 is set. Parts always equals the number of parts Split
// produces for Compose(text, cancel11).
func Count(text string, cancel11 bool) Stats {
	m := measurement{gsm: true}
	m.add(text)
	footer := ""
	if cancel11 {
		footer = Cancel11Footer
		m.add(footer)
	}
	enc, n, pairs := m.result()
	single, multi := enc.capacities()
	st := Stats{Encoding: enc, Characters: n}
	switch {
	case n == 0:
		st.CharsLeft = single
	case n <= single:
		st.Parts = 1
		st.CharsLeft = single - n
	case !pairs:
		st.Parts = (n + multi - 1) / multi
		st.CharsLeft = multi - (n - (st.Parts-1)*multi)
	default:
		p := packer{capacity: multi}
		p.addString(enc, text)
		p.addString(enc, footer)
		st.Parts = p.parts
		st.CharsLeft = multi - p.used
	}
	return st
}
