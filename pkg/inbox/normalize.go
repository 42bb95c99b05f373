package inbox

import (
	"strings"
	"unicode"

	"github.com/chapar/chapar/pkg/validate"
)

// letters maps the Arabic forms handsets send to the Persian ones keywords are
// kept in.
var letters = strings.NewReplacer(
	"ي", "ی", "ى", "ی", "ئ", "ی", // Arabic yeh, alef maksura, yeh with hamza
	"ك", "ک", // Arabic kaf
	"ة", "ه", "ۀ", "ه", // teh marbuta, heh with yeh
	"أ", "ا", "إ", "ا", "ٱ", "ا", // alef forms (آ stays: it is a Persian letter)
	"ؤ", "و",
)

// Normalize is the form messages and keywords are matched in: Arabic letters as
// Persian (ي→ی, ك→ک …), Persian and Arabic digits as Latin, Latin letters in
// lower case, the zero-width non-joiner, tatweel, diacritics and direction
// marks removed, and runs of spaces as one space with none around.
func Normalize(text string) string {
	text = letters.Replace(validate.ToLatinDigits(text))
	var b strings.Builder
	b.Grow(len(text))
	space := false
	for _, r := range text {
		switch {
		case r == '\u200c' || r == '\u200d' || r == '\u0640' || r == '\u200e' || r == '\u200f' || r == '\ufeff':
			continue // ZWNJ, ZWJ, tatweel, bidi marks, BOM
		case r >= '\u064b' && r <= '\u0652' || r == '\u0670':
			continue // harakat
		case unicode.IsSpace(r):
			space = b.Len() > 0
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}
