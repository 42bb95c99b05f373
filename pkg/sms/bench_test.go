package sms

import (
	"strings"
	"testing"
)

var benchTexts = []struct {
	name     string
	text     string
	cancel11 bool
}{
	// 2 parts: 120 Persian characters plus the footer.
	{"persian-2-parts", strings.Repeat("مشتری گرامی، تخفیف ویژه ", 5), true},
	// 2 parts: 255 GSM-7 characters, two of them extension characters.
	{"gsm-2-parts", strings.Repeat("Dear customer, your code is 12345. ", 7) + "[promo]", false},
}

func BenchmarkCount(b *testing.B) {
	for _, bt := range benchTexts {
		b.Run(bt.name, func(b *testing.B) {
			if st := Count(bt.text, bt.cancel11); st.Parts != 2 {
				b.Fatalf("%+v: want 2 parts", st)
			}
			b.SetBytes(int64(len(bt.text)))
			b.ReportAllocs()
			for b.Loop() {
				Count(bt.text, bt.cancel11)
			}
		})
	}
}

func BenchmarkSplit(b *testing.B) {
	for _, bt := range benchTexts {
		b.Run(bt.name, func(b *testing.B) {
			text := Compose(bt.text, bt.cancel11)
			if parts, _ := Split(text, 1); len(parts) != 2 {
				b.Fatalf("%d parts, want 2", len(parts))
			}
			b.SetBytes(int64(len(text)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Split(text, 1); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
