package validate

import (
	"net/mail"
	"strings"
	"unicode/utf8"
)

// PasswordMinLength is the minimum password length in characters (spec §9).
const PasswordMinLength = 8

// digitCount returns the number of digits of s after NormalizeDigits, or -1
// when s is blank or holds anything but digits.
func digitCount(s string) int {
	s = NormalizeDigits(s)
	if s == "" {
		return -1
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return -1
		}
	}
	return len(s)
}

func digitsBetween(s string, lo, hi int, field, msg string) error {
	if n := digitCount(s); n < lo || n > hi {
		return fail(field, msg)
	}
	return nil
}

// NationalCode checks an Iranian national code (کد ملی): exactly 10 digits
// (MsgNationalCodeMust10), not one digit repeated, and a valid check digit
// (MsgNationalCodeInvalid).
//
// The check digit is the last digit: with s = Σ d[i]·(10-i) over the first
// nine digits and r = s mod 11, it must be r when r < 2 and 11-r otherwise.
func NationalCode(s string) error {
	if digitCount(s) != 10 {
		return fail(FieldNationalCode, MsgNationalCodeMust10)
	}
	d := NormalizeDigits(s)
	if strings.Count(d, d[:1]) == 10 {
		return fail(FieldNationalCode, MsgNationalCodeInvalid)
	}
	sum := 0
	for i := 0; i < 9; i++ {
		sum += int(d[i]-'0') * (10 - i)
	}
	check := sum % 11
	if check >= 2 {
		check = 11 - check
	}
	if int(d[9]-'0') != check {
		return fail(FieldNationalCode, MsgNationalCodeInvalid)
	}
	return nil
}

// PostalCode checks a postal code: exactly 10 digits.
func PostalCode(s string) error {
	return digitsBetween(s, 10, 10, FieldPostalCode, MsgPostalCode)
}

// Landline checks a landline number: digits only, at most 11 of them.
func Landline(s string) error {
	return digitsBetween(s, 1, 11, FieldLandline, MsgLandline)
}

// CityCode checks a city (area) code: exactly 3 digits.
func CityCode(s string) error {
	return digitsBetween(s, 3, 3, FieldCityCode, MsgCityCode)
}

// RegistrationNumber checks a company registration number: 3 to 15 digits.
func RegistrationNumber(s string) error {
	return digitsBetween(s, 3, 15, FieldRegistrationNumber, MsgRegistrationNumber)
}

// EconomicNumber checks an economic number (کد اقتصادی): 3 to 12 digits.
func EconomicNumber(s string) error {
	return digitsBetween(s, 3, 12, FieldEconomicNumber, MsgEconomicNumber)
}

// CompanyNationalID checks a company national id (شناسه ملی): 3 to 11 digits.
func CompanyNationalID(s string) error {
	return digitsBetween(s, 3, 11, FieldCompanyNationalID, MsgCompanyNationalID)
}

// Email checks an e-mail address: a bare addr-spec that net/mail accepts (no
// display name, no angle brackets), at most 254 bytes, whose domain is a
// dotted name.
func Email(s string) error {
	s = strings.TrimSpace(s)
	if s == "" || len(s) > 254 {
		return fail(FieldEmail, MsgEmail)
	}
	a, err := mail.ParseAddress(s)
	if err != nil || a.Name != "" || a.Address != s {
		return fail(FieldEmail, MsgEmail)
	}
	domain := s[strings.LastIndexByte(s, '@')+1:]
	if !strings.Contains(domain, ".") || strings.HasPrefix(domain, ".") ||
		strings.HasSuffix(domain, ".") || strings.Contains(domain, "..") ||
		strings.ContainsAny(domain, "[]") {
		return fail(FieldEmail, MsgEmail)
	}
	return nil
}

// IsPersianOrArabic reports whether r comes from a Persian or Arabic
// keyboard: any character of the Unicode Arabic blocks (letters, Persian and
// Arabic-Indic digits, Arabic punctuation, presentation forms) or the
// zero-width non-joiner that Persian typing inserts.
func IsPersianOrArabic(r rune) bool {
	switch {
	case r >= 0x0600 && r <= 0x06FF, // Arabic
		r >= 0x0750 && r <= 0x077F,   // Arabic Supplement
		r >= 0x0870 && r <= 0x08FF,   // Arabic Extended-B and -A
		r >= 0xFB50 && r <= 0xFDFF,   // Arabic Presentation Forms-A
		r >= 0xFE70 && r <= 0xFEFF,   // Arabic Presentation Forms-B
		r >= 0x10E60 && r <= 0x10E7F, // Rumi Numeral Symbols
		r >= 0x10EC0 && r <= 0x10EFF, // Arabic Extended-C
		r >= 0x1EE00 && r <= 0x1EEFF, // Arabic Mathematical Alphabetic Symbols
		r == 0x200C:                  // zero-width non-joiner
		return true
	}
	return false
}

// LatinOnly fails with MsgLatinOnly, labelled field, when s contains a
// Persian or Arabic character (see IsPersianOrArabic). It restricts
// characters only: an empty s passes. It serves several fields, so it takes
// the field name.
func LatinOnly(field, s string) error {
	if strings.IndexFunc(s, IsPersianOrArabic) >= 0 {
		return fail(field, MsgLatinOnly)
	}
	return nil
}

// FeatureName checks the Latin name of a custom feature: one or more Latin
// letters, digits and hyphens, nothing else (surrounding whitespace is
// ignored).
func FeatureName(s string) error {
	s = strings.TrimSpace(s)
	if s == "" {
		return fail(FieldFeatureName, MsgFeatureName)
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-') {
			return fail(FieldFeatureName, MsgFeatureName)
		}
	}
	return nil
}

// Password checks a new password (spec §5): at least PasswordMinLength
// characters (MsgPasswordTooShort); at least one Latin digit, one lowercase
// and one uppercase Latin letter (MsgPasswordWeak); and not containing the
// username, compared case-insensitively (MsgPasswordHasUsername). The first
// rule broken is reported. Special characters are only recommended: see
// HasSpecialChar.
func Password(password, username string) error {
	if utf8.RuneCountInString(password) < PasswordMinLength {
		return fail(FieldPassword, MsgPasswordTooShort)
	}
	var digit, lower, upper bool
	for i := 0; i < len(password); i++ {
		switch c := password[i]; {
		case c >= '0' && c <= '9':
			digit = true
		case c >= 'a' && c <= 'z':
			lower = true
		case c >= 'A' && c <= 'Z':
			upper = true
		}
	}
	if !digit || !lower || !upper {
		return fail(FieldPassword, MsgPasswordWeak)
	}
	if u := strings.TrimSpace(username); u != "" &&
		strings.Contains(strings.ToLower(password), strings.ToLower(u)) {
		return fail(FieldPassword, MsgPasswordHasUsername)
	}
	return nil
}

// PasswordConfirmation fails with MsgPasswordMismatch when the confirmation
// differs from the password.
func PasswordConfirmation(password, confirmation string) error {
	if password != confirmation {
		return fail(FieldPasswordConfirmation, MsgPasswordMismatch)
	}
	return nil
}

// HasSpecialChar reports whether password holds one of the recommended
// special characters @ ! $ % & (or any other ASCII punctuation). A form may
// show MsgPasswordSpecialHint when it does not; it is not an error.
func HasSpecialChar(password string) bool {
	for i := 0; i < len(password); i++ {
		c := password[i]
		if c > ' ' && c < 0x7F && !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return true
		}
	}
	return false
}
