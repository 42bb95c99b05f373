package sms

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"
)

const (
	fa    = "س" // one UCS-2 unit
	emoji = "😀" // two UCS-2 units (surrogate pair)
	euro  = "€" // two GSM-7 septets (escape pair)
)

func rep(s string, n int) string { return strings.Repeat(s, n) }

func TestEncodingOf(t *testing.T) {
	tests := []struct {
		text string
		want Encoding
	}{
		{"", GSM7},
		{"Hello, world!", GSM7},
		{"@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !\"#¤%&'()*+,-./0123456789:;<=>?", GSM7},
		{"¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà", GSM7},
		{"^{}\\[~]|€\f", GSM7},
		{"سلام", UCS2},
		{"Hello سلام", UCS2},
		{"price: 100 " + emoji, UCS2},
		{"ç", UCS2},      // only capital Ç is in the table
		{"`", UCS2},      // backtick is not GSM
		{"\t", UCS2},     // nor is tab
		{"\x1b", UCS2},   // the escape is not a character
		{"\x00", UCS2},   // nor is NUL (septet 0 is @)
		{"á", UCS2},      // accents outside the table
		{"۱۲۳", UCS2},    // Persian digits
		{"\u00a0", UCS2}, // no-break space
		{"\xff", UCS2},   // invalid UTF-8 is sent as U+FFFD
		{Cancel11Footer, UCS2},
	}
	for _, tt := range tests {
		if got := EncodingOf(tt.text); got != tt.want {
			t.Errorf("EncodingOf(%q) = %v, want %v", tt.text, got, tt.want)
		}
		if got := Count(tt.text, false).Encoding; got != tt.want {
			t.Errorf("Count(%q).Encoding = %v, want %v", tt.text, got, tt.want)
		}
	}
}

func TestCompose(t *testing.T) {
	if Cancel11Footer != "\nلغو۱۱" || utf8.RuneCountInString(Cancel11Footer) != 6 {
		t.Fatalf("Cancel11Footer = %q: want a newline and «لغو۱۱», 6 characters", Cancel11Footer)
	}
	if got := Compose("salam", true); got != "salam\nلغو۱۱" {
		t.Errorf("Compose(true) = %q", got)
	}
	if got := Compose("salam", false); got != "salam" {
		t.Errorf("Compose(false) = %q", got)
	}
	if EncodingOf(Compose("plain ascii", true)) != UCS2 {
		t.Error("a message with the footer must be UCS-2")
	}
}

func TestCheckLength(t *testing.T) {
	for _, text := range []string{"", "a", rep("a", MaxTextRunes), rep(fa, MaxTextRunes), rep(emoji, MaxTextRunes), rep(euro, MaxTextRunes)} {
		if err := CheckLength(text); err != nil {
			t.Errorf("CheckLength(%d runes) = %v", utf8.RuneCountInString(text), err)
		}
	}
	for _, text := range []string{rep("a", MaxTextRunes+1), rep(fa, MaxTextRunes+1), rep(emoji, MaxTextRunes+1)} {
		if err := CheckLength(text); !errors.Is(err, ErrTooLong) {
			t.Errorf("CheckLength(%d runes) = %v, want ErrTooLong", utf8.RuneCountInString(text), err)
		}
	}
	if !strings.Contains(ErrTooLong.Error(), "۲۷۰۰") {
		t.Errorf("ErrTooLong = %q", ErrTooLong)
	}
}

// Expected figures below are worked out by hand from the rules in doc.go,
// not taken from the implementation.
var boundaryCases = []struct {
	name     string
	text     string
	cancel11 bool
	want     Stats
}{
	{"empty", "", false, Stats{GSM7, 0, 0, 160}},
	{"empty with footer", "", true, Stats{UCS2, 6, 1, 64}},
	{"gsm 1", "a", false, Stats{GSM7, 1, 1, 159}},
	{"gsm 153", rep("a", 153), false, Stats{GSM7, 153, 1, 7}},
	{"gsm 154", rep("a", 154), false, Stats{GSM7, 154, 1, 6}},
	{"gsm 159", rep("a", 159), false, Stats{GSM7, 159, 1, 1}},
	{"gsm 160", rep("a", 160), false, Stats{GSM7, 160, 1, 0}},
	{"gsm 161", rep("a", 161), false, Stats{GSM7, 161, 2, 145}},
	{"gsm 305", rep("a", 305), false, Stats{GSM7, 305, 2, 1}},
	{"gsm 306", rep("a", 306), false, Stats{GSM7, 306, 2, 0}},
	{"gsm 307", rep("a", 307), false, Stats{GSM7, 307, 3, 152}},
	{"gsm 459", rep("a", 459), false, Stats{GSM7, 459, 3, 0}},
	{"gsm 460", rep("a", 460), false, Stats{GSM7, 460, 4, 152}},
	{"gsm 2700", rep("a", 2700), false, Stats{GSM7, 2700, 18, 54}},
	{"gsm extension chars", "^{}\\[~]|€\f", false, Stats{GSM7, 20, 1, 140}},
	{"gsm 159 + euro", rep("a", 159) + euro, false, Stats{GSM7, 161, 2, 145}},
	{"gsm 158 + euro", rep("a", 158) + euro, false, Stats{GSM7, 160, 1, 0}},
	{"gsm 80 euros", rep(euro, 80), false, Stats{GSM7, 160, 1, 0}},
	{"gsm 81 euros", rep(euro, 81), false, Stats{GSM7, 162, 2, 143}},      // 76 + 5 euros
	{"gsm 2700 euros", rep(euro, 2700), false, Stats{GSM7, 5400, 36, 73}}, // 35×76 + 40
	// The escape pair would straddle septets 153/154: it moves to part 2.
	{"gsm escape straddles 153", rep("a", 152) + euro + rep("a", 10), false, Stats{GSM7, 164, 2, 141}},
	// Same, and the lost septet costs a third part: 152 | 2+151 | 1.
	{"gsm escape straddle costs a part", rep("a", 152) + euro + rep("a", 152), false, Stats{GSM7, 306, 3, 152}},
	{"gsm escape ends part 1", rep("a", 151) + euro + rep("a", 153), false, Stats{GSM7, 306, 2, 0}},
	{"gsm escape starts part 2", rep("a", 153) + euro + rep("a", 10), false, Stats{GSM7, 165, 2, 141}},
	{"gsm crlf and formfeed", "a\r\nb\fc", false, Stats{GSM7, 7, 1, 153}},
	{"ucs2 1", fa, false, Stats{UCS2, 1, 1, 69}},
	{"ucs2 67", rep(fa, 67), false, Stats{UCS2, 67, 1, 3}},
	{"ucs2 69", rep(fa, 69), false, Stats{UCS2, 69, 1, 1}},
	{"ucs2 70", rep(fa, 70), false, Stats{UCS2, 70, 1, 0}},
	{"ucs2 71", rep(fa, 71), false, Stats{UCS2, 71, 2, 63}},
	{"ucs2 133", rep(fa, 133), false, Stats{UCS2, 133, 2, 1}},
	{"ucs2 134", rep(fa, 134), false, Stats{UCS2, 134, 2, 0}},
	{"ucs2 135", rep(fa, 135), false, Stats{UCS2, 135, 3, 66}},
	{"ucs2 201", rep(fa, 201), false, Stats{UCS2, 201, 3, 0}},
	{"ucs2 202", rep(fa, 202), false, Stats{UCS2, 202, 4, 66}},
	{"ucs2 2700", rep(fa, 2700), false, Stats{UCS2, 2700, 41, 47}},
	{"ucs2 2700 with footer", rep(fa, 2700), true, Stats{UCS2, 2706, 41, 41}},
	{"ucs2 2700 emoji", rep(emoji, 2700), false, Stats{UCS2, 5400, 82, 13}}, // 81×33 + 27 emoji
	{"emoji 35", rep(emoji, 35), false, Stats{UCS2, 70, 1, 0}},
	{"emoji 36", rep(emoji, 36), false, Stats{UCS2, 72, 2, 61}}, // 33 + 3 emoji
	// The surrogate pair would straddle units 67/68: it moves to part 2.
	{"emoji straddles 67", rep(fa, 66) + emoji + rep(fa, 10), false, Stats{UCS2, 78, 2, 55}},
	// Same, and it costs a third part: 66 | 2+65 | 1.
	{"emoji straddle costs a part", rep(fa, 66) + emoji + rep(fa, 66), false, Stats{UCS2, 134, 3, 66}},
	{"emoji ends part 1", rep(fa, 65) + emoji + rep(fa, 67), false, Stats{UCS2, 134, 2, 0}},
	{"emoji at 69", rep(fa, 68) + emoji, false, Stats{UCS2, 70, 1, 0}},
	{"emoji at 70", rep(fa, 69) + emoji, false, Stats{UCS2, 71, 2, 63}}, // 67 | 2+2
	{"footer 63", rep(fa, 63), true, Stats{UCS2, 69, 1, 1}},
	{"footer 64", rep(fa, 64), true, Stats{UCS2, 70, 1, 0}},
	{"footer 65", rep(fa, 65), true, Stats{UCS2, 71, 2, 63}},
	{"footer on latin text 64", rep("a", 64), true, Stats{UCS2, 70, 1, 0}},
	{"footer on latin text 65", rep("a", 65), true, Stats{UCS2, 71, 2, 63}},
	{"footer 128", rep(fa, 128), true, Stats{UCS2, 134, 2, 0}},
	{"footer 129", rep(fa, 129), true, Stats{UCS2, 135, 3, 66}},
	{"persian greeting", "سلام، وقت بخیر! کد تخفیف شما: ۱۲۳۴", false, Stats{UCS2, 34, 1, 36}},
	{"mixed", "Hello سلام", false, Stats{UCS2, 10, 1, 60}},
	{"mixed with footer", "Hello سلام", true, Stats{UCS2, 16, 1, 54}},
	{"gsm with footer", "Hello", true, Stats{UCS2, 11, 1, 59}},
	{"gsm greek and symbols", "ΔΦΓΛΩΠΨΣΘΞ£¥¤§¡¿", false, Stats{GSM7, 16, 1, 144}},
	{"lowercase c-cedilla is ucs2", "Ça ç", false, Stats{UCS2, 4, 1, 66}},
	{"backtick is ucs2", "a`b", false, Stats{UCS2, 3, 1, 67}},
	{"gsm text with one emoji", rep("a", 100) + emoji, false, Stats{UCS2, 102, 2, 32}},
	{"persian digits with footer", "کد: ۱۲۳۴۵", true, Stats{UCS2, 15, 1, 55}},
}

func TestCountBoundaries(t *testing.T) {
	for _, tt := range boundaryCases {
		t.Run(tt.name, func(t *testing.T) {
			if got := Count(tt.text, tt.cancel11); got != tt.want {
				t.Errorf("Count = %+v, want %+v", got, tt.want)
			}
			// The splitter agrees part by part.
			parts, err := Split(Compose(tt.text, tt.cancel11), 7)
			if err != nil {
				t.Fatal(err)
			}
			checkParts(t, parts, tt.want)
		})
	}
}

// checkParts asserts that parts match the counter figures.
func checkParts(t *testing.T, parts []Part, want Stats) {
	t.Helper()
	if len(parts) != want.Parts {
		t.Fatalf("Split made %d parts, Count says %d", len(parts), want.Parts)
	}
	single, multi := want.Encoding.capacities()
	units := 0
	for i, p := range parts {
		units += p.Units
		capacity := multi
		if len(parts) == 1 {
			capacity = single
		}
		if p.Units > capacity {
			t.Errorf("part %d holds %d units, capacity %d", i+1, p.Units, capacity)
		}
		if i == len(parts)-1 && capacity-p.Units != want.CharsLeft {
			t.Errorf("last part leaves %d, Count says %d", capacity-p.Units, want.CharsLeft)
		}
		if p.Encoding != want.Encoding {
			t.Errorf("part %d encoding %v, want %v", i+1, p.Encoding, want.Encoding)
		}
	}
	if units != want.Characters {
		t.Errorf("parts hold %d units, Count says %d characters", units, want.Characters)
	}
}

// Character pools for generated texts.
var (
	poolGSM     = []rune("abcXYZ019 .,!?@£$¥èÇ\n\rΔ_Ω¡¿äöñüà-+*/#%&'\"():;<=>")
	poolGSMExt  = []rune("^{}\\[~]|€\f")
	poolPersian = []rune("سلامپچژگکیۀ۰۱۲۳۴۵۶۷۸۹،؟ ")
	poolAstral  = []rune("😀🎉👍🇮\U00010348")
	poolOther   = []rune("çá\t`\x00\x1b\u00a0\u200c\ufffd\u2028")
)

// randomText makes a text of n runes: GSM-7 only when gsmOnly, otherwise
// drawn from every pool.
func randomText(r *rand.Rand, n int, gsmOnly bool) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		pool := poolGSM
		switch k := r.IntN(10); {
		case gsmOnly && k >= 8, !gsmOnly && k == 5:
			pool = poolGSMExt
		case gsmOnly || k < 5:
		case k < 8:
			pool = poolPersian
		case k < 9:
			pool = poolAstral
		default:
			pool = poolOther
		}
		b.WriteRune(pool[r.IntN(len(pool))])
	}
	return b.String()
}

// countByRunes is an independent, slow model of the counter: it encodes
// each rune, then fills parts one character at a time.
func countByRunes(text string) Stats {
	enc := GSM7
	for _, r := range text {
		if !strings.ContainsRune(gsmAlphabet, r) {
			enc = UCS2
		}
	}
	var widths []int
	for _, r := range text {
		w := 1
		if enc == GSM7 && strings.ContainsRune("^{}\\[~]|€\f", r) {
			w = 2
		}
		if enc == UCS2 && r > 0xFFFF {
			w = 2
		}
		widths = append(widths, w)
	}
	n := 0
	for _, w := range widths {
		n += w
	}
	single, multi := 160, 153
	if enc == UCS2 {
		single, multi = 70, 67
	}
	switch {
	case n == 0:
		return Stats{enc, 0, 0, single}
	case n <= single:
		return Stats{enc, n, 1, single - n}
	}
	parts, used := 1, 0
	for _, w := range widths {
		if used+w > multi {
			parts++
			used = 0
		}
		used += w
	}
	return Stats{enc, n, parts, multi - used}
}

// gsmAlphabet lists the GSM-7 characters, written out independently of the
// package's tables (the alphabet decision is also checked against
// github.com/warthog618/sms).
const gsmAlphabet = "@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !\"#¤%&'()*+,-./0123456789:;<=>?" +
	"¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà" + "^{}\\[~]|€\f"

func TestCountMatchesModelAndSplit(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 3000; i++ {
		n := r.IntN(700)
		if i%10 == 0 {
			n = r.IntN(MaxTextRunes + 1)
		}
		text := randomText(r, n, i%2 == 0)
		cancel11 := i%3 == 0
		got := Count(text, cancel11)
		if want := countByRunes(Compose(text, cancel11)); got != want {
			t.Fatalf("Count(%q, %v) = %+v, model says %+v", text, cancel11, got, want)
		}
		parts, err := Split(Compose(text, cancel11), uint8(i))
		if err != nil {
			t.Fatal(err)
		}
		checkParts(t, parts, got)
		if t.Failed() {
			t.Fatalf("text %q", text)
		}
	}
}

func TestEncodingText(t *testing.T) {
	for _, e := range []Encoding{GSM7, UCS2} {
		b, err := e.MarshalText()
		if err != nil {
			t.Fatal(err)
		}
		var back Encoding
		if err := back.UnmarshalText(b); err != nil || back != e {
			t.Errorf("round trip of %v: %v, %v", e, back, err)
		}
	}
	if GSM7.String() != "gsm7" || UCS2.String() != "ucs2" {
		t.Errorf("names %q %q", GSM7, UCS2)
	}
	if GSM7.DataCoding() != 0x00 || UCS2.DataCoding() != 0x08 {
		t.Error("data_coding values")
	}
	var e Encoding
	if err := e.UnmarshalText([]byte("utf8")); err == nil {
		t.Error("UnmarshalText accepted utf8")
	}
	if _, err := Encoding(9).MarshalText(); err == nil {
		t.Error("MarshalText accepted 9")
	}
}
