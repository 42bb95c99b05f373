package assistant

import (
	"context"
	"errors"
	"strings"
	"testing"
)

func TestRegisters(t *testing.T) {
	formal, err := offline(t, Task{Action: Formal, Text: "سلام دوست عزیز! الان میتونید با ۲۰ درصد تخفیف خرید کنید. منتظرتیم!", Parts: 2})
	if err != nil {
		t.Fatal(err)
	}
	if want := "با سلام و احترام، مشتری گرامی، اکنون می‌توانید با ۲۰ درصد تخفیف خرید نمایید. منتظر حضور شما هستیم!"; formal != want {
		t.Errorf("formal:\n%s\nwant\n%s", formal, want)
	}
	friendly, err := offline(t, Task{Action: Friendly, Text: "مشتری گرامی، جهت دریافت هدیه به فروشگاه مراجعه نمایید. سپاسگزاریم.", Parts: 2})
	if err != nil {
		t.Fatal(err)
	}
	if want := "دوست عزیز، برای دریافت هدیه به فروشگاه مراجعه کنید. ممنونیم."; friendly != want {
		t.Errorf("friendly:\n%s\nwant\n%s", friendly, want)
	}
	short, err := offline(t, Task{Action: Shorter, Text: "مشتری گرامی، بدین وسیله به اطلاع می‌رساند که در صورتی که قبض را نپرداخته‌اید، جهت پرداخت به سایت مراجعه نمایید. منتظر شما هستیم.", Parts: 1})
	if err != nil {
		t.Fatal(err)
	}
	if want := "اگر قبض را نپرداخته‌اید، برای پرداخت به سایت مراجعه نمایید."; short != want {
		t.Errorf("shorter:\n%s\nwant\n%s", short, want)
	}
	longer, err := offline(t, Task{Action: Longer, Text: "تخفیف ۲۰٪ تا جمعه.\nلغو۱۱", Brand: "کفش آریا", Parts: 1})
	if err != nil {
		t.Fatal(err)
	}
	if want := "مشتری گرامی، تخفیف ۲۰٪ تا جمعه.\nبا سپاس،\nکفش آریا\nلغو۱۱"; longer != want {
		t.Errorf("longer:\n%s\nwant\n%s", longer, want)
	}
}

// TestOfflineDeclines: what the rules cannot do well is declined with a
// Persian reason, never written badly.
func TestOfflineDeclines(t *testing.T) {
	cases := []struct {
		name string
		task Task
		want string
	}{
		{"free writing", Task{Request: "یک تبلیغ برای کفش بنویس", Parts: 2}, MsgFreeOffline},
		{"an ad", Task{Action: Ad, Text: "تخفیف کفش", Parts: 2}, MsgFreeOffline},
		{"colloquial to formal", Task{Action: Formal, Text: "سلام! امروز قهوه رو مهمون ما باش.", Parts: 2}, "محاوره‌ای"},
		{"a WebOTP code", Task{Action: Friendly, Text: "کد ورود: 123456\n@chapar.ir #123456", Parts: 2}, MsgFixedForm},
		{"nothing to drop", Task{Action: Shorter, Text: "کد ورود شما: ۱۲۳۴۵۶", Parts: 1}, MsgNothingToDrop},
		{"already friendly", Task{Action: Friendly, Text: "سلام! امروز تخفیف داریم.", Parts: 2}, MsgFriendlyDone},
		{"no room for a greeting", Task{Action: Formal, Text: strings.Repeat("تخفیف داریم. ", 5) + "تا جمعه.", Parts: 1}, "حداکثر ۱ بخش"},
	}
	for _, c := range cases {
		_, err := Offline{}.Complete(context.Background(), Prompt{Task: c.task})
		var d *Declined
		if !errors.As(err, &d) || !strings.Contains(d.Reason, c.want) {
			t.Errorf("%s: %v, want a refusal with %q", c.name, err, c.want)
		}
	}
}

// TestVariablesKept: a pattern's variables and the editor's tags survive every
// rewrite.
func TestVariablesKept(t *testing.T) {
	text := "مشتری گرامی %name%، سفارش شماره %order% شما با موفقیت ثبت شد. پیگیری: {link:7}" + strings.Repeat("_", 13) + " با تشکر از خرید شما"
	for _, a := range QuickActions {
		out, err := offline(t, Task{Action: a, Text: text, Parts: 3})
		if err != nil {
			continue
		}
		for _, v := range []string{"%name%", "%order%", "{link:7}" + strings.Repeat("_", 13)} {
			if !strings.Contains(out, v) {
				t.Errorf("%s lost %s: %q", a, v, out)
			}
		}
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

func TestAdRequest(t *testing.T) {
	for req, want := range map[string]bool{"یک تبلیغ برای کفش بنویس": true, "یک آگهی فروش بنویس": true, "کوتاهش کن": false} {
		if adRequest(req) != want {
			t.Errorf("%q: %v", req, !want)
		}
	}
}

// BenchmarkOfflineQuickAction is one quick action of the offline model on a
// corpus text (the four actions in turn, budget 2, footer on), checked.
func BenchmarkOfflineQuickAction(b *testing.B) {
	texts := loadCorpus(b)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s := texts[i%len(texts)]
		t := Task{Action: QuickActions[i%4], Text: s.text, Brand: s.brand, Parts: 2, Cancel11: true}
		out, err := Offline{}.Complete(context.Background(), Prompt{Task: t})
		if err == nil {
			Check(t.Text, out, Spec{Action: t.Action, Brand: t.Brand, Parts: 2, Cancel11: true})
		}
	}
}
