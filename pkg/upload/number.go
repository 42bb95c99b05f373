package upload

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/chapar/chapar/pkg/validate"
)

// Kind classifies a row error (spec §5 "Row errors").
type Kind string

// The kinds of row errors.
const (
	KindEmpty  Kind = "empty"  // the mobile (or, peer-to-peer, the message) cell is empty
	KindFormat Kind = "format" // the cell holds digits that are not a mobile number
	KindOther  Kind = "other"  // anything else: text, a formula error, a message too long
)

// Message is the Persian message of a row error kind.
func (k Kind) Message() string {
	switch k {
	case KindEmpty:
		return MsgRowEmpty
	case KindFormat:
		return MsgRowFormat
	}
	return MsgRowOther
}

// ParseMobile reads the mobile number of a spreadsheet or text cell and returns it
// normalised to 98XXXXXXXXXX, or the kind of row error it is.
//
// Besides what validate.NormalizeMobile accepts (0912…, 98912…, +98…, Persian and
// Arabic digits, spaces and dashes), it reads what spreadsheets make of a number
// typed into a numeric cell: the leading 0 lost (9121234567), a decimal tail
// ("9121234567.0"), thousands separators ("989,121,234,567") and scientific notation
// that still carries every digit ("9.121234567E9"). Scientific notation whose
// mantissa is shorter than the number (9.89121E+11) has lost digits: that is a
// format error, never a guessed number.
func ParseMobile(cell string) (string, Kind) {
	s := strings.TrimFunc(cell, isBlank)
	if s == "" {
		return "", KindEmpty
	}
	if m, ok := validate.NormalizeMobile(s); ok {
		return m, ""
	}
	if d, ok := exactInteger(validate.ToLatinDigits(s)); ok {
		if m, ok := validate.NormalizeMobile(d); ok {
			return m, ""
		}
		return "", KindFormat
	}
	if strings.IndexFunc(s, isDigit) >= 0 {
		return "", KindFormat
	}
	return "", KindOther
}

// isDigit reports a Latin, Persian or Arabic-Indic digit.
func isDigit(r rune) bool {
	return (r >= '0' && r <= '9') || (r >= '۰' && r <= '۹') || (r >= '٠' && r <= '٩')
}

// isBlank reports white space and invisible formatting marks (bidi marks, BOM, ZWNJ).
func isBlank(r rune) bool { return unicode.IsSpace(r) || unicode.Is(unicode.Cf, r) }

// exactInteger returns the decimal digits of the integer that a numeric text
// denotes exactly: "9121234567.0", "9.121234567E9", "989,121,234,567" (also with the
// Arabic separators ٫ and ٬). It fails on a fractional value, on scientific notation
// whose mantissa has fewer significant digits than the integer (the digits are lost)
// and on anything that is not such a number.
func exactInteger(s string) (string, bool) {
	s = strings.Map(func(r rune) rune {
		switch r {
		case '٫':
			return '.'
		case '٬':
			return ','
		}
		return r
	}, s)
	if strings.ContainsRune(s, ',') {
		var ok bool
		if s, ok = ungroup(s); !ok {
			return "", false
		}
	}
	mant, exp, sci := s, 0, false
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		e, err := strconv.Atoi(strings.TrimPrefix(s[i+1:], "+"))
		if err != nil || e < -30 || e > 30 {
			return "", false
		}
		mant, exp, sci = s[:i], e, true
	}
	intPart, frac, _ := strings.Cut(mant, ".")
	if intPart == "" && frac == "" || !allDigits(intPart) || !allDigits(frac) {
		return "", false
	}
	// The value is digits × 10^(exp − len(frac)).
	digits := strings.TrimLeft(intPart+frac, "0")
	shift := exp - len(frac)
	significant := len(digits)
	if shift < 0 {
		cut := len(digits) + shift
		if cut < 0 {
			cut = 0
		}
		tail := digits[cut:]
		digits = digits[:cut]
		if strings.Trim(tail, "0") != "" {
			// A fraction. Floating-point noise (17 significant digits, such as
			// 9.8912123456700006E+11) rounds to the integer it stands for.
			if significant < 16 || len(digits) > 15 || tail[0] != '0' && tail[0] != '9' {
				return "", false
			}
			if tail[0] == '9' {
				digits = increment(digits)
			}
		}
	} else {
		digits += strings.Repeat("0", shift)
	}
	if digits == "" {
		digits = "0"
	}
	if sci && significant < len(strings.TrimLeft(digits, "0")) && significant < 16 {
		return "", false
	}
	return digits, true
}

// ungroup removes thousands separators from "989,121,234,567" (groups of three
// before any decimal point); anything else fails.
func ungroup(s string) (string, bool) {
	whole, frac, hasFrac := strings.Cut(s, ".")
	groups := strings.Split(whole, ",")
	if len(groups[0]) == 0 || len(groups[0]) > 3 {
		return "", false
	}
	for _, g := range groups[1:] {
		if len(g) != 3 {
			return "", false
		}
	}
	out := strings.Join(groups, "")
	if hasFrac {
		out += "." + frac
	}
	return out, true
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// increment adds one to a decimal string.
func increment(d string) string {
	b := []byte(d)
	for i := len(b) - 1; i >= 0; i-- {
		if b[i] < '9' {
			b[i]++
			return string(b)
		}
		b[i] = '0'
	}
	return "1" + string(b)
}

// mobileKey packs a normalised mobile (12 digits) into a number for the dedupe set.
func mobileKey(m string) uint64 {
	n, _ := strconv.ParseUint(m, 10, 64)
	return n
}

// clip shortens a cell value kept with a row error.
func clip(s string, max int) string {
	if len(s) <= max {
		return s
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}
