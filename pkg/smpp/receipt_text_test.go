package smpp

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// refReceiptText is the receipt text parser as it was before parseReceiptText
// stopped allocating (a lower-cased copy, a map of the fields): the reference
// the present one is held to.
func refReceiptText(s string) map[string]string {
	lower := asciiLower(s)
	type mark struct {
		canon      string
		start, val int
	}
	keys := []struct{ key, canon string }{{"submit date", "submit date"}, {"submit_date", "submit date"},
		{"done date", "done date"}, {"done_date", "done date"}, {"dlvrd", "dlvrd"}, {"stat", "stat"},
		{"text", "text"}, {"err", "err"}, {"sub", "sub"}, {"id", "id"}}
	var marks []mark
	for i := 0; i < len(lower); i++ {
		if i > 0 && !isReceiptSep(lower[i-1]) {
			continue
		}
		for _, k := range keys {
			if !strings.HasPrefix(lower[i:], k.key) {
				continue
			}
			j := i + len(k.key)
			for j < len(lower) && lower[j] == ' ' {
				j++
			}
			if j < len(lower) && lower[j] == ':' {
				marks = append(marks, mark{canon: k.canon, start: i, val: j + 1})
				i = j
				break
			}
		}
		if len(marks) > 0 && marks[len(marks)-1].canon == "text" {
			break
		}
	}
	out := make(map[string]string, len(marks))
	for n, m := range marks {
		end := len(s)
		if n+1 < len(marks) {
			end = marks[n+1].start
		}
		if _, dup := out[m.canon]; !dup {
			out[m.canon] = strings.TrimSpace(s[m.val:end])
		}
	}
	return out
}

// randomReceiptText is receipt-like text: keys in any case (and near misses),
// repeated or missing, separators of every kind, spaces before colons, values
// with colons, non-ASCII and invalid bytes, and more than sixteen fields.
func randomReceiptText(r *rand.Rand) string {
	words := []string{"id", "ID", "Id", "sub", "SUB", "dlvrd", "DLVRD", "submit date", "Submit Date", "submit_date",
		"SUBMIT_DATE", "done date", "DONE date", "done_date", "stat", "STAT", "err", "Err", "text", "TEXT",
		"idx", "sta", "submit", "date", "subdate", "x", "ıd", "ST\xc3\x84T", "\xff", "DELIVRD", "0A1B2C", "2406011230",
		"سلام", "001", "u"}
	seps := []string{" ", "  ", "\t", ",", ";", "\n", "\r\n", "", ", "}
	var b strings.Builder
	for range r.IntN(25) {
		b.WriteString(seps[r.IntN(len(seps))])
		b.WriteString(words[r.IntN(len(words))])
		switch r.IntN(4) {
		case 0:
			b.WriteString(":")
		case 1:
			b.WriteString(strings.Repeat(" ", r.IntN(3)) + ":" + strings.Repeat(" ", r.IntN(2)))
		}
		if r.IntN(2) == 0 {
			b.WriteString(words[r.IntN(len(words))])
		}
	}
	return b.String()
}

// parseReceiptText reads every text as the reference parser does: the same
// fields, the same values, whatever the case, order, repetition or bytes.
func TestReceiptTextMatchesReference(t *testing.T) {
	names := [rfCount]string{rfSubmitDate: "submit date", rfDoneDate: "done date", rfDlvrd: "dlvrd", rfStat: "stat",
		rfText: "text", rfErr: "err", rfSub: "sub", rfID: "id"}
	texts := []string{"", "id:1 sub:001 dlvrd:001 submit date:2406011230 done date:240601123145 stat:DELIVRD err:000 text:x",
		"ID : 5F3A stat:UNDELIV text: id:7 stat:DELIVRD", "id:1,id:2;STAT:delivrd", strings.Repeat("id:1 ", 40) + "text:y"}
	r := rand.New(rand.NewPCG(44, 3))
	for range 20000 {
		texts = append(texts, randomReceiptText(r))
	}
	for _, s := range texts {
		want, got := refReceiptText(s), parseReceiptText(s)
		for f, name := range names {
			if got[f] != want[name] {
				t.Fatalf("%q: %s = %q, want %q", s, name, got[f], want[name])
			}
		}
	}
}

// BenchmarkParseReceipt is one carrier receipt read, as the gateway reads every one.
func BenchmarkParseReceipt(b *testing.B) {
	d := Deliver{ESMClass: ESMClassSMSCReceipt, IsReceipt: true, ShortMessage: []byte("id:00A1B2C3D4 sub:001 dlvrd:001 " +
		"submit date:2612071020 done date:2612071021 stat:DELIVRD err:000 text:چاپار")}
	b.ReportAllocs()
	for b.Loop() {
		if _, ok := ParseReceipt(d); !ok {
			b.Fatal("not a receipt")
		}
	}
}

// asciiLower lowercases ASCII letters and nothing else, byte for byte, and
// hands back a string without upper-case ASCII letters as it is.
func TestASCIILower(t *testing.T) {
	r := rand.New(rand.NewPCG(44, 4))
	for range 20000 {
		b := make([]byte, r.IntN(24))
		for i := range b {
			b[i] = "aZ09-_ ÄıİKk\xff\xc3"[r.IntN(16)]
		}
		want := []byte(string(b))
		for i, c := range want {
			if c >= 'A' && c <= 'Z' {
				want[i] = c + 'a' - 'A'
			}
		}
		if got := asciiLower(string(b)); got != string(want) {
			t.Fatalf("asciiLower(%q) = %q, want %q", b, got, want)
		}
	}
}
