// Package shortlink renders and reads the tracked short links of message texts.
//
// A text names a tracked link by a placeholder, {link:ID} (ID: the tracker's link
// id). Each recipient gets its own short code per link: the sequence part of the
// recipient's id, and the link's slot (its place among the distinct links of the
// text) with the id's month modulo 12 in one character, in base62, with a
// six-character HMAC (62^6 ≈ 5.7·10^10 tries per code) so that codes can be
// neither made up by counting nor guessed. Codes of sends made before the HMAC
// was lengthened carry two characters (LegacyCodeLen); Decode still reads them and
// the redirect accepts them only for those sends. A recipient id
// is its month's base plus a global sequence (pkg/history), so the sequence
// alone names the row once the month is known: the latest month with that
// remainder, or the rows from before the ids carried months. A code is always
// CodeLen characters, so a rendered link has a fixed length and the parts of a
// message (its price) are known when it is quoted, before any recipient exists.
package shortlink

import (
	"crypto/hmac"
	"crypto/sha256"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// monthShift is where a recipient id's month starts (pkg/history: id =
// month << 42 + sequence).
const monthShift = 42

// Code layout: idLen characters of recipient id, one of slot, macLen of HMAC.
const (
	idLen   = 7
	macLen  = 6
	CodeLen = idLen + 1 + macLen // CodeLen is the length of every code rendered
	// legacyMacLen and LegacyCodeLen are the HMAC and code of the first codes.
	legacyMacLen  = 2
	LegacyCodeLen = idLen + 1 + legacyMacLen
	// MaxSlots is how many distinct tracked links one text may hold.
	MaxSlots = 5
	// maxID is the largest id sequence idLen base62 digits hold.
	maxID = 3_521_614_606_207 // 62^7 - 1
	// monthCycle is how many months the slot character tells apart.
	monthCycle = 12
)

const alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

// DefaultBase is the default of SHORTLINK_BASE (the API's default address): the
// base of a codec a binary was not given.
const DefaultBase = "http://127.0.0.1:8080/l/"

// Marker starts every placeholder; a text without it has no tracked link.
const Marker = "{link:"

var placeholder = regexp.MustCompile(`\{link:(\d{1,18})\}`)

// Codec renders and reads codes under one base address and key.
type Codec struct {
	base string
	key  []byte
}

// New returns a codec whose links start with base (e.g. "https://chpr.ir/l/"); the
// codes' HMAC is keyed by a key derived from secret.
func New(base, secret string) *Codec {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write([]byte("chapar short link v1"))
	return &Codec{base: base, key: m.Sum(nil)}
}

// Base is the address every short link starts with.
func (c *Codec) Base() string { return c.base }

// Has reports whether text holds a placeholder.
func Has(text string) bool { return strings.Contains(text, Marker) }

// LinkIDs lists the distinct link ids of text's placeholders in order of first
// appearance: a link's index here is its slot.
func LinkIDs(text string) []int64 {
	if !Has(text) {
		return nil
	}
	var out []int64
	for _, m := range placeholder.FindAllStringSubmatch(text, -1) {
		id, err := strconv.ParseInt(m[1], 10, 64)
		if err != nil || id <= 0 {
			continue
		}
		seen := false
		for _, x := range out {
			seen = seen || x == id
		}
		if !seen {
			out = append(out, id)
		}
	}
	return out
}

// Sized is text with every placeholder replaced by a link of the exact length a
// recipient's will have: what counting characters and parts must read.
func (c *Codec) Sized(text string) string {
	if !Has(text) {
		return text
	}
	return placeholder.ReplaceAllLiteralString(text, c.base+strings.Repeat("0", CodeLen))
}

// Render is text as recipientID receives it: each placeholder replaced by the
// recipient's short link of that slot. A placeholder beyond MaxSlots is left as
// it is (the send's validation refuses such texts).
func (c *Codec) Render(text string, recipientID int64) string {
	return c.RenderFrom(text, text, recipientID)
}

// RenderFrom renders a recipient's own text (a pattern's values filled in, a
// keyword row's cells, a peer-to-peer row) with the links of its send's template
// only: a placeholder whose link the template does not hold — one a value or a
// cell brought in — is left as plain text, and slots are the template's, which is
// what the redirect reads back. Values can therefore never add a link.
func (c *Codec) RenderFrom(template, text string, recipientID int64) string {
	ids := LinkIDs(template)
	if len(ids) == 0 || !Has(text) {
		return text
	}
	return placeholder.ReplaceAllStringFunc(text, func(m string) string {
		id, _ := strconv.ParseInt(m[len(Marker):len(m)-1], 10, 64)
		for slot, x := range ids {
			if x == id && slot < MaxSlots {
				return c.base + c.Code(recipientID, slot)
			}
		}
		return m
	})
}

// Code is the short code of a recipient's link in slot.
func (c *Codec) Code(recipientID int64, slot int) string {
	seq, month := recipientID&(1<<monthShift-1), int(recipientID>>monthShift)
	b := make([]byte, 0, CodeLen)
	b = appendBase62(b, seq%(maxID+1), idLen)
	b = append(b, alphabet[(month%monthCycle)*MaxSlots+slot%MaxSlots])
	return string(append(b, c.mac(b, macLen)...))
}

// Ref is what a code names: a recipient id sequence, the remainder of its month
// and the link's slot.
type Ref struct {
	Seq   int64
	Month int // the id's month modulo 12
	Slot  int
	// Legacy marks a code with the first, two-character HMAC.
	Legacy bool
}

// Candidates are the recipient ids the code may name, as of now: the latest
// month up to now with the code's remainder, and an id from before months
// were carried. Ids are unique, so at most one of them exists.
func (r Ref) Candidates(now time.Time) []int64 {
	m := (now.UTC().Year()-2020)*12 + int(now.UTC().Month()) - 1
	m -= ((m-r.Month)%monthCycle + monthCycle) % monthCycle
	return []int64{int64(m)<<monthShift | r.Seq, r.Seq}
}

// Decode reads a code back into what it names; ok is false for anything but a
// code this codec made.
func (c *Codec) Decode(code string) (ref Ref, ok bool) {
	if len(code) != CodeLen && len(code) != LegacyCodeLen {
		return Ref{}, false
	}
	ref.Legacy = len(code) == LegacyCodeLen
	for i := 0; i < idLen+1; i++ {
		d := strings.IndexByte(alphabet, code[i])
		if d < 0 || (i == idLen && d >= monthCycle*MaxSlots) {
			return Ref{}, false
		}
		if i < idLen {
			ref.Seq = ref.Seq*62 + int64(d)
		} else {
			ref.Month, ref.Slot = d/MaxSlots, d%MaxSlots
		}
	}
	if !hmac.Equal([]byte(code[idLen+1:]), c.mac([]byte(code[:idLen+1]), len(code)-idLen-1)) || ref.Seq <= 0 {
		return Ref{}, false
	}
	return ref, true
}

// mac is the width base62 characters that sign a code's first part: macLen of
// the HMAC's first 48 bits, or legacyMacLen of its first 24 (the first codes).
func (c *Codec) mac(head []byte, width int) []byte {
	m := hmac.New(sha256.New, c.key)
	m.Write(head)
	sum := m.Sum(nil)
	if width == legacyMacLen {
		n := int64(sum[0])<<16 | int64(sum[1])<<8 | int64(sum[2])
		return appendBase62(nil, n%(62*62), legacyMacLen)
	}
	var n int64
	for _, b := range sum[:6] {
		n = n<<8 | int64(b)
	}
	return appendBase62(nil, n%56_800_235_584, macLen) // 62^6
}

// appendBase62 appends n in base62 padded to width digits.
func appendBase62(b []byte, n int64, width int) []byte {
	start := len(b)
	for i := 0; i < width; i++ {
		b = append(b, '0')
	}
	for i := start + width - 1; i >= start && n > 0; i-- {
		b[i] = alphabet[n%62]
		n /= 62
	}
	return b
}
