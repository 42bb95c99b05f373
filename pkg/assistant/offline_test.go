package assistant

import (
	"bufio"
	"context"
	"os"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/chapar/chapar/pkg/validate"
)

type sample struct{ brand, text string }

func corpus(t *testing.T) []sample {
	t.Helper()
	f, err := os.Open("testdata/corpus.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []sample
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		brand, text, ok := strings.Cut(line, "|")
		if !ok {
			t.Fatalf("corpus line without a brand: %q", line)
		}
		out = append(out, sample{brand, text})
	}
	if len(out) != 30 {
		t.Fatalf("corpus has %d texts, want 30", len(out))
	}
	return out
}

// meaningWords are the words a rewrite must keep: those with a digit, month
// names (dates), and the brand's words the text holds.
func meaningWords(s sample) []string {
	var out []string
	for _, w := range strings.Fields(s.text) {
		w = strings.TrimFunc(w, func(r rune) bool { return unicode.IsPunct(r) && r != '%' })
		if strings.IndexFunc(w, unicode.IsDigit) >= 0 || months[w] {
			out = append(out, w)
		}
	}
	for _, b := range strings.Fields(s.brand) {
		if strings.Contains(s.text, b) {
			out = append(out, b)
		}
	}
	return out
}

func run(t *testing.T, task Task) string {
	t.Helper()
	out, err := Offline{}.Complete(context.Background(), Prompt{Task: task})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestQuickActionsOnCorpus: every quick action on every text keeps the meaning
// words, stays within the budget and does what it says on the length.
func TestQuickActionsOnCorpus(t *testing.T) {
	for i, s := range corpus(t) {
		base := min(parts(s.text, false), 3)
		for _, a := range []Action{Shorter, Longer, Friendly, Formal} {
			budget := base
			if a == Longer {
				budget = min(base+1, 3)
			}
			out := run(t, Task{Action: a, Text: s.text, Brand: s.brand, Parts: budget})
			if got := parts(out, false); got > budget || got == 0 {
				t.Errorf("text %d %s: %d parts, budget %d: %q", i+1, a, got, budget, out)
			}
			for _, w := range meaningWords(s) {
				if !strings.Contains(out, w) {
					t.Errorf("text %d %s lost %q: %q", i+1, a, w, out)
				}
			}
			n, orig := utf8.RuneCountInString(out), utf8.RuneCountInString(s.text)
			if a == Shorter && n >= orig {
				t.Errorf("text %d shorter: %d characters, was %d: %q", i+1, n, orig, out)
			}
			if a == Longer && n <= orig {
				t.Errorf("text %d longer: %d characters, was %d: %q", i+1, n, orig, out)
			}
		}
	}
}

// TestBudgetAlwaysHolds: with every budget and the opt-out footer on or off,
// no action answers more parts than the budget.
func TestBudgetAlwaysHolds(t *testing.T) {
	for i, s := range corpus(t) {
		for _, a := range []Action{Shorter, Longer, Friendly, Formal, Ad} {
			for budget := 1; budget <= 3; budget++ {
				for _, c11 := range []bool{false, true} {
					out := run(t, Task{Action: a, Text: s.text, Brand: s.brand, Parts: budget, Cancel11: c11})
					if got := parts(out, c11); got > budget || strings.TrimSpace(out) == "" {
						t.Errorf("text %d %s budget %d cancel11 %v: %d parts: %q", i+1, a, budget, c11, got, out)
					}
				}
			}
		}
	}
}

func TestRegisters(t *testing.T) {
	formal := run(t, Task{Action: Formal, Text: "سلام دوست عزیز! الان میتونی با ۲۰ درصد تخفیف بخری. منتظرتیم", Parts: 2})
	for _, w := range []string{"با سلام و احترام", "می‌توانید", "اکنون", "۲۰", "منتظر حضور شما هستیم"} {
		if !strings.Contains(formal, w) {
			t.Errorf("formal lacks %q: %q", w, formal)
		}
	}
	friendly := run(t, Task{Action: Friendly, Text: "مشتری گرامی، جهت دریافت هدیه به فروشگاه مراجعه نمایید.", Parts: 2})
	for _, w := range []string{"دوست عزیز", "برای", "سر بزنید"} {
		if !strings.Contains(friendly, w) {
			t.Errorf("friendly lacks %q: %q", w, friendly)
		}
	}
	if strings.Contains(friendly, "نمایید") || strings.Contains(friendly, "جهت") {
		t.Errorf("friendly kept the formal words: %q", friendly)
	}
}

// TestVariablesKept: a pattern's variables and the editor's tags survive a
// rewrite that must drop words to fit.
func TestVariablesKept(t *testing.T) {
	text := "مشتری گرامی %name%، سفارش شماره %order% شما با موفقیت ثبت شد و به زودی برای شما ارسال خواهد شد. پیگیری: {link:7} با تشکر از خرید شما"
	out := run(t, Task{Action: Shorter, Text: text, Parts: 1})
	for _, v := range []string{"%name%", "%order%", "{link:7}"} {
		if !strings.Contains(out, v) {
			t.Errorf("lost %s: %q", v, out)
		}
	}
	if parts(out, false) != 1 {
		t.Errorf("over the budget: %q", out)
	}
}

func TestLinkPadding(t *testing.T) {
	padded := padLinks("خرید: {link:7} و {link:12}", 20)
	if padded != "خرید: {link:7}"+strings.Repeat("_", 12)+" و {link:12}"+strings.Repeat("_", 11) {
		t.Errorf("padded: %q", padded)
	}
	if got := unpadLinks(padded); got != "خرید: {link:7} و {link:12}" {
		t.Errorf("unpadded: %q", got)
	}
	if padLinks("{link:7}", 0) != "{link:7}" {
		t.Error("no link length should leave the text")
	}
}

func TestAdTemplate(t *testing.T) {
	req := "یک تبلیغ برای تخفیف ۲۰ درصدی کفش زمستانی تا ۱۵ آذر بنویس"
	for budget := 1; budget <= 3; budget++ {
		out := run(t, Task{Request: req, Brand: "کفش آریا", Parts: budget, Cancel11: true})
		if !strings.HasPrefix(out, "کفش آریا\n") || !strings.Contains(out, "۲۰") || !strings.Contains(out, "۱۵ آذر") {
			t.Errorf("budget %d: %q", budget, out)
		}
		if strings.Contains(out, "بنویس") || strings.Contains(out, "تبلیغ") || strings.Contains(out, "لغو") {
			t.Errorf("budget %d: command words or the footer in the ad: %q", budget, out)
		}
		if parts(out, true) > budget {
			t.Errorf("budget %d: %d parts", budget, parts(out, true))
		}
	}
	long := run(t, Task{Request: req, Brand: "کفش آریا", Parts: 3})
	short := run(t, Task{Request: req, Brand: "کفش آریا", Parts: 1})
	if len(long) <= len(short) {
		t.Errorf("a larger budget should give a fuller ad: %q vs %q", long, short)
	}
}

func TestInterpret(t *testing.T) {
	cases := map[string]Action{
		"این متن را کوتاه‌تر کن":           Shorter,
		"لحنش را رسمی کن":                  Formal,
		"کمی صمیمی‌ترش کن":                 Friendly,
		"بلندترش کن":                       Longer,
		"یک آگهی برای فروش ویژه عید بنویس": Ad,
		"سلام": Chat,
	}
	for req, want := range cases {
		if got := Interpret(Task{Request: req, Text: "متن پیش‌نویس"}).Action; got != want {
			t.Errorf("%q: %q, want %q", req, got, want)
		}
	}
	if got := Interpret(Task{Request: "کوتاه کن"}); got.Action != Chat {
		t.Errorf("a rewrite with no text should not run: %+v", got)
	}
	if got := Interpret(Task{Request: "کوتاهش کن: سلام این یک متن بسیار طولانی است"}); got.Text != "سلام این یک متن بسیار طولانی است" {
		t.Errorf("the text after the colon: %+v", got)
	}
	if out := run(t, Task{Request: "سلام", Parts: 1}); out != helpText {
		t.Errorf("unknown request: %q", out)
	}
}

// TestGuard: links and phone numbers the user did not write are removed, those
// they wrote stay, a link with a variable goes, and the budget holds.
func TestGuard(t *testing.T) {
	src := "تخفیف ۳۰ درصد؛ سایت ما https://shop.example.ir/off و تلفن ۰۲۱۸۸۷۷۶۶۵۵"
	reply := "کفش آریا: تخفیف ۳۰ درصد! https://shop.example.ir/off و https://evil.example.com/x " +
		"تماس: 021-88776655 یا 09121234567 و www.example.ir/{name}"
	out := Guard(reply, Task{Action: Ad, Brand: "کفش آریا", Parts: 3}, src)
	for _, bad := range []string{"evil.example.com", "09121234567", "{name}"} {
		if strings.Contains(out, bad) {
			t.Errorf("kept %q: %q", bad, out)
		}
	}
	if !strings.Contains(out, "https://shop.example.ir/off") || !strings.Contains(validate.ToLatinDigits(out), "021-88776655") {
		t.Errorf("dropped what the user wrote: %q", out)
	}
	out = Guard("تخفیف ویژه!", Task{Action: Ad, Brand: "کفش آریا", Parts: 1}, "")
	if !strings.HasPrefix(out, "کفش آریا") {
		t.Errorf("the ad lacks the brand: %q", out)
	}
	long := strings.Repeat("این یک جمله طولانی بدون عدد است. ", 20)
	if out := Guard(long, Task{Action: Shorter, Parts: 1}, ""); parts(out, false) != 1 {
		t.Errorf("over the budget: %q", out)
	}
}

// BenchmarkOfflineQuickAction is one quick action of the offline model on a
// corpus text (the four actions in turn, budget 2, footer on).
func BenchmarkOfflineQuickAction(b *testing.B) {
	f, err := os.ReadFile("testdata/corpus.txt")
	if err != nil {
		b.Fatal(err)
	}
	var texts []string
	for _, line := range strings.Split(string(f), "\n") {
		if _, text, ok := strings.Cut(line, "|"); ok && !strings.HasPrefix(line, "#") {
			texts = append(texts, text)
		}
	}
	actions := []Action{Shorter, Longer, Friendly, Formal}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t := Task{Action: actions[i%4], Text: texts[i%len(texts)], Brand: "کفش آریا", Parts: 2, Cancel11: true}
		if _, err := (Offline{}).Complete(context.Background(), Prompt{Task: t}); err != nil {
			b.Fatal(err)
		}
	}
}
