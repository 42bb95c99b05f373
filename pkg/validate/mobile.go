package validate

import (
	"strings"
	"unicode"

	"github.com/chapar/chapar/pkg/numbering"
)

// ToLatinDigits replaces Persian (۰-۹, U+06F0-U+06F9) and Arabic-Indic
// (٠-٩, U+0660-U+0669) digits with Latin digits and leaves everything else
// as it is.
func ToLatinDigits(s string) string {
	i := strings.IndexFunc(s, isNonLatinDigit)
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	b.WriteString(s[:i])
	for _, r := range s[i:] {
		switch {
		case r >= '۰' && r <= '۹':
			b.WriteByte(byte('0' + r - '۰'))
		case r >= '٠' && r <= '٩':
			b.WriteByte(byte('0' + r - '٠'))
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func isNonLatinDigit(r rune) bool {
	return (r >= '۰' && r <= '۹') || (r >= '٠' && r <= '٩')
}

// NormalizeDigits trims surrounding whitespace and converts Persian and
// Arabic digits to Latin: what the panel does to a numeric input.
func NormalizeDigits(s string) string {
	return ToLatinDigits(strings.TrimSpace(s))
}

// NormalizeMobile returns the canonical form 98XXXXXXXXXX (12 digits) of an
// Iranian mobile number, and false when s is not one.
//
// Accepted: an optional prefix 0, 98, +98 or 0098, then 9 and nine digits;
// also the bare 9XXXXXXXXX that a spreadsheet numeric cell leaves. Persian
// and Arabic digits are converted; spaces, dashes, parentheses and invisible
// formatting marks (such as the bidi marks copied along with Persian text)
// are ignored. Anything else is rejected: letters, dots, scientific notation
// like 9.89121E+11, landlines and wrong lengths, and numbers in blocks that are
// not allocated to any mobile operator (pkg/numbering: 0940…, 0950…, 0997…).
func NormalizeMobile(s string) (string, bool) {
	var buf [16]byte
	n := 0
	plus := false
	for _, r := range s {
		switch {
		case r >= '0' && r <= '9':
			if n == len(buf) {
				return "", false
			}
			buf[n] = byte(r)
			n++
		case r >= '۰' && r <= '۹':
			if n == len(buf) {
				return "", false
			}
			buf[n] = byte('0' + r - '۰')
			n++
		case r >= '٠' && r <= '٩':
			if n == len(buf) {
				return "", false
			}
			buf[n] = byte('0' + r - '٠')
			n++
		case r == '+':
			// Only before the first digit, and only once: anything else
			// before it is filler, or the loop has already returned.
			if plus || n > 0 {
				return "", false
			}
			plus = true
		case isMobileFiller(r):
		default:
			return "", false
		}
	}
	d, ok := canonicalMobile(string(buf[:n]), plus)
	if !ok || !numbering.Allocated(d) {
		return "", false
	}
	return d, true
}

// canonicalMobile brings the digits of a mobile number (with a leading + when
// plus) to 98XXXXXXXXXX by its prefix and length.
func canonicalMobile(d string, plus bool) (string, bool) {
	n := len(d)
	switch {
	case plus:
		if n != 12 || !strings.HasPrefix(d, "989") {
			return "", false
		}
		return d, true
	case n == 14 && strings.HasPrefix(d, "00989"):
		return d[2:], true
	case n == 12 && strings.HasPrefix(d, "989"):
		return d, true
	case n == 11 && strings.HasPrefix(d, "09"):
		return "98" + d[1:], true
	case n == 10 && d[0] == '9':
		return "98" + d, true
	}
	return "", false
}

// isMobileFiller reports the separators and invisible marks that may appear
// in a typed, pasted or exported phone number.
func isMobileFiller(r rune) bool {
	switch r {
	case '-', '(', ')', '\u2010', '\u2011', '\u2012', '\u2013', '\u2212':
		return true
	}
	return unicode.IsSpace(r) || unicode.Is(unicode.Cf, r)
}

// Mobile fails with MsgMobile unless s is an Iranian mobile number accepted
// by NormalizeMobile.
func Mobile(s string) error {
	if _, ok := NormalizeMobile(s); !ok {
		return fail(FieldMobile, MsgMobile)
	}
	return nil
}

// LocalMobile writes a stored mobile (98XXXXXXXXXX) in the local form people
// read and dial, 09XXXXXXXXX, as exports and reports show it; any other value
// (a masked number, a short code) is returned unchanged.
func LocalMobile(stored string) string {
	if len(stored) == 12 && strings.HasPrefix(stored, "98") && digitCount(stored) == 12 {
		return "0" + stored[2:]
	}
	return stored
}
