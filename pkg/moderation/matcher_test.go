package moderation

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/chapar/chapar/pkg/sms"
)

// TestMatcherAgreesWithCheck: the per-row matcher finds exactly the words the main
// text's check finds, whatever letter forms, joiners and punctuation a text uses.
func TestMatcherAgreesWithCheck(t *testing.T) {
	r := Rules{Words: []string{"قمار", "Casino", "شرط بندی", "ـكازينوـ"}}
	m := r.Matcher()
	cases := map[string]bool{
		"سلام، امروز تخفیف داریم": false,
		"بهترین سایت قمار ایران":  true,
		"قماربازی":                false,
		"CASINO!":                 true,
		"شرط\u200cبندی فوتبال":    true,
		"شرط‌ها بندی":             false,
		"كازینو آنلاین":           true,
		"کازیـــنو":               true,
		"":                        false,
		"a casinos b":             false,
		"۱۲۳ قمار۴":               false,
		"متن بلند " + strings.Repeat("کلمه ", 80) + "قمار": true,
	}
	for text, want := range cases {
		_, got := m.Match(text)
		byCheck := len(r.Check(Send{Text: text})) > 0
		if got != want || byCheck != want {
			t.Errorf("%q: matcher %v, check %v, want %v", text, got, byCheck, want)
		}
	}
	if (Rules{Words: []string{" ", "ـ"}}).Matcher() != nil {
		t.Error("a list of blank words must give no matcher")
	}
	if _, ok := (*Matcher)(nil).Match("قمار"); ok {
		t.Error("a nil matcher matched")
	}
}

// rowTexts are peer-to-peer texts of the shape customers send (about 70 characters).
func rowTexts(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("مشتری گرامی %d، سفارش شماره %d شما ارسال شد. کد رهگیری: %d فروشگاه چاپار", i, i*7, i*13)
	}
	return out
}

// BenchmarkMatchRows is the per-row word and link check of a 1,000,000-row file
// (reported per row), beside BenchmarkCountRows, the per-row length count every walk
// already does, so the added cost reads as a fraction of the walk's.
func BenchmarkMatchRows(b *testing.B) {
	words := make([]string, 200)
	for i := range words {
		words[i] = fmt.Sprintf("واژه%d", i)
	}
	words = append(words, "قمار", "شرط بندی")
	m := Rules{Words: words, Links: true}.Matcher()
	benchRows(b, func(text string) bool { _, ok := m.Match(text); return ok || m.Link(text) })
}

// BenchmarkLinkRows is the per-row link check alone; BenchmarkLinkRegexpRows is the
// link expression alone on the same texts, the cost the byte pre-scan avoids.
func BenchmarkLinkRows(b *testing.B) { benchRows(b, Rules{Links: true}.Matcher().Link) }

func BenchmarkLinkRegexpRows(b *testing.B) { benchRows(b, linkRE.MatchString) }

// BenchmarkCountRows is the walk's existing per-row cost (sms.Count) for comparison.
func BenchmarkCountRows(b *testing.B) {
	benchRows(b, func(text string) bool { return sms.Count(text, true).Parts == 0 })
}

// benchRows runs check over the row texts, one per iteration; none may match.
func benchRows(b *testing.B, check func(string) bool) {
	texts := rowTexts(1024)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if check(texts[i%len(texts)]) {
			b.Fatal("matched")
		}
	}
}

// TestLinkAgreesWithRegexp: the per-row link check (and the main text's, which
// shares it) finds exactly the links the link expression finds in the matching
// copy, its pre-scan skipping only texts the expression cannot match; without the
// links rule (and without words) there is no matcher.
func TestLinkAgreesWithRegexp(t *testing.T) {
	m := Rules{Links: true}.Matcher()
	cases := map[string]bool{
		"سلام. سفارش شما رسید.":         false,
		"مبلغ 12.500 تومان":             false,
		"مبلغ ۱.۲۵۰.۰۰۰.۰۰۰ ریال":       false,
		"حجم 2.5GB اینترنت":             false,
		"ساعت ۱۰:۳۰ منتظرتان هستیم":     false,
		"ساعت 10:30 منتظرتان هستیم":     false,
		"خرید از Shop-Chapar.IR":        true,
		"http://x":                      true,
		"HTTPS://chapar":                true,
		"www.chapar":                    true,
		"a.comx":                        true,
		"_x.com":                        true,
		"-x.com":                        true,
		"chapar\u212A.com":              true,
		"shop.\u212Aom":                 true,
		"http\u017F://chapar":           true,
		"سایت ما: example.co را ببینید": true,
		"":     false,
		".com": false,
		"پیوند ما: chapar.ir/offer?id=1۲": true,
	}
	for text, want := range cases {
		if re := linkRE.MatchString(linkCopy(text)); re != want {
			t.Fatalf("%q: the case is wrong (the expression says %v)", text, re)
		}
		if got := m.Link(text); got != want {
			t.Errorf("%q: Link %v, want %v", text, got, want)
		}
		if byCheck := len(Rules{Links: true}.Check(Send{Text: text})) > 0; byCheck != want {
			t.Errorf("%q: Check %v, want %v", text, byCheck, want)
		}
	}
	if (Rules{}).Matcher() != nil || (Rules{Words: []string{"قمار"}}).Matcher().Link("www.x.ir") {
		t.Error("links are checked only when the rules hold them")
	}
	if _, ok := m.Match("www.قمار.ir"); ok {
		t.Error("a links-only matcher matched a word")
	}
}

// TestHiddenLinksAndWords (issue 38 item 9): shorteners and unlisted endings,
// Unicode full stops, fullwidth and look-alike letters, Persian-digit addresses and
// invisible characters inside a link are links; sensitive words split by
// non-joiners, joiners, zero-width spaces or bidi marks, or written with Persian
// digits or fullwidth letters, are found, by the main text's check and the per-row
// matcher alike. The texts themselves are never changed.
func TestHiddenLinksAndWords(t *testing.T) {
	links := []string{
		"جایزه: bit.ly/3xYz", "goo.gl/abc", "x.ly", "برو به x.tk", "x\uff0etk", "x\u3002tk", "x\uff61tk",
		"x\ufe52tk", "x\u2024tk", "example\u06d4com", "ｂｉｔ．ｌｙ/1", "x.\u200btk", "x\u200c.tk", "x.\u202etk",
		"ba\u200dnk.tk", "۱۹۲.۱۶۸.۱.۱۰/login", "10.0.0.1", "gооgle.com", "ایران.ir", "hxxp://bad", "https：／／x",
		"bank.xn--mgba3a4f16a",
	}
	plain := []string{"سلام، جشنواره تابستانه. تخفیف ۲۰٪", "قیمت 1.250.000.000 ریال", "نسخه v1.2 منتشر شد",
		"ساعت ۱۰:۳۰", "e.g. فردا", "مبلغ ۱۲.۵۰۰ تومان"}
	r := Rules{Links: true, Words: []string{"قمار", "casino", "شرط بندی", "1xbet"}}
	m := r.Matcher()
	for _, text := range links {
		if !m.Link(text) || !slices.Contains(r.Check(Send{Text: text}), ReasonLink) || !HasLink(text) {
			t.Errorf("%q: the link was missed", text)
		}
	}
	for _, text := range plain {
		if m.Link(text) || HasLink(text) {
			t.Errorf("%q: not a link", text)
		}
	}
	words := map[string]string{
		"قم\u200cار آنلاین":    "قمار",
		"قم\u200dار":           "قمار",
		"ق\u200bمار":           "قمار",
		"قم\u200fار":           "قمار",
		"ca\u200bsi\u2060no":   "casino",
		"ｃａｓｉｎｏ":               "casino",
		"cаsino":               "casino",
		"۱xbet":                "1xbet",
		"شرط\u200cبندی فوتبال": "شرط بندی",
		"شرط\u200b \u200dبندی": "شرط بندی",
	}
	for text, want := range words {
		got, ok := m.Match(text)
		if !ok || got != want {
			t.Errorf("%q: matcher %q %v, want %q", text, got, ok, want)
		}
		if !slices.Contains(r.Check(Send{Text: text}), ReasonWord+want) {
			t.Errorf("%q: check %q, want %q", text, r.Check(Send{Text: text}), want)
		}
	}
	for _, text := range []string{"می\u200cروم به خانه", "شرط\u200cها بندی"} {
		if _, ok := m.Match(text); ok || len(r.Check(Send{Text: text})) > 0 {
			t.Errorf("%q: matched", text)
		}
	}
}
