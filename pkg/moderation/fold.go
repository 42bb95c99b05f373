package moderation

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The matching copy. Moderation never alters a text; it matches a folded copy in
// which the tricks that hide a word or a link from a plain comparison are undone:
// zero-width and bidirectional control characters are dropped, fullwidth forms,
// Persian and Arabic digits, look-alike Cyrillic and Greek letters and every
// Unicode full stop are read as their ASCII counterparts. The zero-width non-joiner,
// which Persian needs inside words, is read both ways: as a space (شرط‌بندی is
// «شرط بندی») and as nothing (قم‌ار is «قمار»).

// zwnj is the zero-width non-joiner (نیم‌فاصله).
const zwnj = '\u200c'

// ignorable reports the invisible characters dropped from the matching copy: the
// zero-width space and joiner, the word joiner and invisible operators, the byte
// order mark, the soft hyphen, the combining grapheme joiner, the Mongolian vowel
// separator and the bidirectional marks, embeddings, overrides and isolates.
func ignorable(r rune) bool {
	switch r {
	case '\u200b', '\u200d', '\u200e', '\u200f', '\u2060', '\ufeff', '\u00ad', '\u034f', '\u180e', '\u061c':
		return true
	}
	return r >= '\u202a' && r <= '\u202e' || r >= '\u2061' && r <= '\u2069'
}

// lookalike are letters of other scripts read as the Latin letter they look like
// (lowercase forms; canon lowers first), and the two letters case folding maps
// into ASCII.
var lookalike = map[rune]rune{
	'а': 'a', 'в': 'b', 'е': 'e', 'к': 'k', 'м': 'm', 'н': 'h', 'о': 'o', 'р': 'p', 'с': 'c', 'т': 't',
	'у': 'y', 'х': 'x', 'і': 'i', 'ј': 'j', 'ѕ': 's', 'ԁ': 'd', 'һ': 'h', 'ӏ': 'l', 'ԛ': 'q', 'ԝ': 'w', 'ɡ': 'g',
	'α': 'a', 'ο': 'o', 'ν': 'v', 'ι': 'i', 'κ': 'k', 'ρ': 'p', 'τ': 't', 'υ': 'u', 'ε': 'e', 'χ': 'x',
	'\u212a': 'k', '\u017f': 's',
}

// canon reads one rune of the matching copy: lowered; fullwidth forms, digits,
// look-alike letters and full stops as ASCII; keep is false for an ignorable rune.
// The non-joiner is left to the caller.
func canon(r rune) (rune, bool) {
	if r < utf8.RuneSelf {
		if r >= 'A' && r <= 'Z' {
			return r + ('a' - 'A'), true
		}
		return r, true
	}
	switch {
	case r >= '۰' && r <= '۹':
		return '0' + r - '۰', true
	case r >= '٠' && r <= '٩':
		return '0' + r - '٠', true
	case r >= 0x0600 && r <= 0x06ff:
		if r == '۔' {
			return '.', true
		}
		return r, true // Arabic letters have no case and no look-alikes here
	case r >= '\uff01' && r <= '\uff5e': // fullwidth ASCII
		return canon(r - 0xfee0)
	case ignorable(r):
		return 0, false
	}
	switch r {
	case '。', '｡', '﹒', '․', '‧', '·', '・', '܁', '܂', '⸼', '︒':
		return '.', true
	case '﹕', '︓':
		return ':', true
	case '∕', '⁄':
		return '/', true
	}
	r = unicode.ToLower(r)
	if l, ok := lookalike[r]; ok {
		return l, true
	}
	return r, true
}

// linkRE finds a link in the matching copy: a scheme (http://, hxxp:\\ …), www.,
// a host-like token — labels of letters, digits and hyphens (any script) ending in
// a dot and a Latin top-level-like ending of two or more letters (bit.ly, x.tk,
// shop.ir) or an IDN ending (xn--…) — or an IPv4 literal (octets without leading
// zeros, so that prices such as 1.250.000.000 are not addresses).
var linkRE = regexp.MustCompile(`(?i)[a-z][a-z0-9+.-]*:[/\\]{2}|www\.` +
	`|[\p{L}\p{N}][\p{L}\p{N}-]*\.(?:[\p{L}\p{N}-]+\.)*(?:[a-z]{2,24}|xn--[a-z0-9-]+)\b` +
	`|(?:^|[^0-9.])(?:(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])\.){3}(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])(?:$|[^0-9.]|\.(?:$|[^0-9]))`)

// hasLink reports whether a text carries a link (linkRE on its matching copy).
// Every link has a full stop followed by a Latin letter or a digit, or a colon
// followed by a slash, once the copy is folded; a text without one — most
// Persian texts — is answered by one pass over its runes, without the copy or the
// regular expression.
func hasLink(text string) bool {
	if !linkCandidate(text) {
		return false
	}
	return linkRE.MatchString(linkCopy(text))
}

// linkCandidate is hasLink's pre-scan over the folded runes. ASCII and the
// Arabic block (two bytes each: Persian letters) are read without the decoder.
func linkCandidate(text string) bool {
	var prev rune
	for i := 0; i < len(text); {
		c, r := text[i], rune(0)
		switch {
		case c < utf8.RuneSelf:
			r, i = rune(c|0x20*byte(b2i(c >= 'A' && c <= 'Z'))), i+1
		case c >= 0xd8 && c <= 0xdb && i+1 < len(text):
			r, i = rune(c&0x1f)<<6|rune(text[i+1]&0x3f), i+2
			if r < '٠' || r > '۹' { // letters: neither a digit nor ۔ (canon)
				prev = r
				continue
			}
			r, _ = canon(r)
		default:
			var size int
			r, size = utf8.DecodeRuneInString(text[i:])
			i += size
			var keep bool
			if r, keep = canon(r); !keep || r == zwnj {
				continue
			}
		}
		switch prev {
		case '.':
			if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
				return true
			}
		case ':':
			if r == '/' || r == '\\' {
				return true
			}
		}
		prev = r
	}
	return false
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// linkCopy is the matching copy the link expression reads (non-joiners dropped).
func linkCopy(text string) string {
	return strings.Map(func(r rune) rune {
		c, keep := canon(r)
		if !keep || r == zwnj {
			return -1
		}
		return c
	}, text)
}

// HasLink reports whether a text carries a link as the moderation rules see one
// (any host-like token, a scheme, www. or an IP address, however written): the
// one link check of every moderated text, pattern values included.
func HasLink(text string) bool { return hasLink(text) }
