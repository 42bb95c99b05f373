package moderation

import (
	"fmt"
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

// BenchmarkMatchRows is the per-row word check of a 1,000,000-row file (reported
// per row), beside BenchmarkCountRows, the per-row length count every walk already
// does, so the added cost reads as a fraction of the walk's.
func BenchmarkMatchRows(b *testing.B) {
	words := make([]string, 200)
	for i := range words {
		words[i] = fmt.Sprintf("واژه%d", i)
	}
	words = append(words, "قمار", "شرط بندی")
	m := Rules{Words: words}.Matcher()
	texts := rowTexts(1024)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, ok := m.Match(texts[i%len(texts)]); ok {
			b.Fatal("matched")
		}
	}
}

// BenchmarkCountRows is the walk's existing per-row cost (sms.Count) for comparison.
func BenchmarkCountRows(b *testing.B) {
	texts := rowTexts(1024)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		_ = sms.Count(texts[i%len(texts)], true)
	}
}
