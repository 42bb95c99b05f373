package moderation

import (
	"strings"
	"unicode/utf8"
)

// Matcher finds the sensitive words in many texts, one per row of a peer-to-peer or
// keyword file: the words are normalised once, and each text is folded rune by rune
// into tokens looked up in a set, without building a normalised copy of the text.
// Multi-word entries fall back to Normalize. When the rules hold links, Link applies
// the link rule to the same texts. A nil Matcher matches nothing.
type Matcher struct {
	single  map[string]string
	phrases []string
	starts  map[string]bool // the phrases' first words
	filter  bloom
	links   bool
}

// Matcher returns the per-row matcher of the rules (nil when there are no words and
// links are not held).
func (r Rules) Matcher() *Matcher {
	m := &Matcher{single: map[string]string{}, starts: map[string]bool{}, links: r.Links}
	for _, w := range r.Words {
		switch w = Normalize(w); {
		case w == "":
		case strings.Contains(w, " "):
			m.phrases = append(m.phrases, w)
			first, _, _ := strings.Cut(w, " ")
			m.starts[first] = true
			m.filter.add([]byte(first))
		default:
			m.single[w] = w
			m.filter.add([]byte(w))
		}
	}
	if len(m.single) == 0 && len(m.phrases) == 0 && !m.links {
		return nil
	}
	return m
}

// Link reports whether a text carries a link and the rules hold links (the main
// text's link rule, applied to one row's text).
func (m *Matcher) Link(text string) bool {
	return m != nil && m.links && hasLink(text)
}

// Match returns the first sensitive word a text carries ("" and false: none). A
// text with non-joiners is read twice: with them as spaces, then as nothing.
func (m *Matcher) Match(text string) (string, bool) {
	if m == nil {
		return "", false
	}
	if w, ok := m.match(text, false); ok || !strings.ContainsRune(text, zwnj) {
		return w, ok
	}
	return m.match(text, true)
}

// match is one reading of Match (dropZWNJ: non-joiners are nothing).
func (m *Matcher) match(text string, dropZWNJ bool) (string, bool) {
	var arr [96]byte
	tok, phrase := arr[:0], false
	for i := 0; i <= len(text); {
		var r rune
		r, i = next(text, i, dropZWNJ)
		switch {
		case r < 0: // dropped (the tatweel)
		case r >= 0x0600 && r <= 0x06FF:
			tok = append(tok, byte(0xC0|r>>6), byte(0x80|r&0x3F))
		case r != ' ':
			tok = utf8.AppendRune(tok, r)
		case len(tok) > 0:
			if m.filter.has(tok) {
				if w, ok := m.single[string(tok)]; ok {
					return w, true
				}
				phrase = phrase || m.starts[string(tok)]
			}
			tok = tok[:0]
		}
	}
	if phrase { // a phrase's first word is there: compare the whole normalised text
		padded := " " + normalize(text, dropZWNJ) + " "
		for _, w := range m.phrases {
			if strings.Contains(padded, " "+w+" ") {
				return w, true
			}
		}
	}
	return "", false
}

// next folds the rune at byte i of the text (a space past its end) and returns it
// with the index after it; -1 is a rune Normalize drops. ASCII and the Arabic block
// (two bytes, U+0600–U+06FF: Persian letters) are folded through tables, without
// the decoder. A non-joiner is dropped when dropZWNJ.
func next(text string, i int, dropZWNJ bool) (rune, int) {
	if i >= len(text) {
		return ' ', i + 1
	}
	c := text[i]
	if c < utf8.RuneSelf {
		return asciiFold[c], i + 1
	}
	if c >= 0xD8 && c <= 0xDB && i+1 < len(text) && text[i+1]&0xC0 == 0x80 {
		return arabicFold[int(c&0x03)<<6|int(text[i+1]&0x3F)], i + 2
	}
	r, size := utf8.DecodeRuneInString(text[i:])
	if r == zwnj && dropZWNJ {
		return -1, i + size
	}
	r, keep := fold(r)
	if !keep {
		return -1, i + size
	}
	return r, i + size
}

// asciiFold and arabicFold are fold over ASCII and over U+0600–U+06FF (-1: dropped).
var asciiFold, arabicFold = func() (a [128]rune, b [256]rune) {
	for i := range a {
		a[i], _ = fold(rune(i))
	}
	for i := range b {
		r, keep := fold(0x0600 + rune(i))
		if !keep {
			r = -1
		}
		b[i] = r
	}
	return a, b
}()

// bloom is a 65,536-bit set of token shapes (length and two bytes): a token whose
// shape is not in it is not a word, without hashing it for the map.
type bloom [1024]uint64

func shape(tok []byte) uint32 {
	return (uint32(len(tok))*131 + uint32(tok[len(tok)/2])*31 + uint32(tok[len(tok)-1])) & 0xFFFF
}

func (b *bloom) add(tok []byte)      { h := shape(tok); b[h>>6] |= 1 << (h & 63) }
func (b *bloom) has(tok []byte) bool { h := shape(tok); return b[h>>6]&(1<<(h&63)) != 0 }

// fold maps one rune as Normalize does: canon (lowered, digits, look-alikes and
// full stops read as ASCII, invisible characters dropped: keep false), Arabic
// letter forms unified, the tatweel dropped and every non-word rune a space.
func fold(r rune) (rune, bool) {
	r, keep := canon(r)
	if !keep {
		return 0, false
	}
	switch r {
	case 'ي', 'ى':
		return 'ی', true
	case 'ك':
		return 'ک', true
	case 'ة':
		return 'ه', true
	case 'أ', 'إ':
		return 'ا', true
	case 'ـ':
		return 0, false
	}
	if isWordRune(r) {
		return r, true
	}
	return ' ', true
}
