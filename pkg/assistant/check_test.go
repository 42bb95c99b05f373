package assistant

import (
	"slices"
	"strings"
	"testing"
)

// TestCheckCatches: each broken reply is refused for the rule it breaks. The
// first two are what the earlier rule-based model wrote (a discount lost and
// an address garbled; a sentence with its middle cut out).
func TestCheckCatches(t *testing.T) {
	const (
		sale   = "کفش آریا: ۲۰ درصد تخفیف روی همه کفش‌های زمستانی تا پایان هفته در شعبه خیابان ولیعصر!"
		winter = "کفش آریا: حراج زمستانه! ۲۰ درصد تخفیف روی همه کفش‌ها تا پایان هفته در شعبه خیابان ولیعصر، پلاک ۱۲. می‌خواهیم شما را ببینیم."
		meet   = "حضور شما در جلسه فردا الزامی است."
	)
	cases := []struct {
		name, in, out string
		sp            Spec
		want          Rule
	}{
		{"discount lost", sale, "کفش آریا: تخفیف روی همه کفش‌های زمستانی در خیابان ولیعصر ۲۰ هفته!", Spec{Action: Shorter}, RuleFact},
		{"middle cut out", winter, "کفش آریا: حراج زمستانه! ۲۰ درصد تخفیف روی همه کفش‌ها تا ۱۲. می‌خواهیم شما را ببینیم.", Spec{Action: Shorter}, RuleCut},
		{"end cut off", meet, "حضور شما در جلسه فردا الزامی", Spec{Action: Shorter}, RuleCut},
		{"no end mark", meet, "حضور شما در جلسه فردا الزامی است و لطفا زودتر بیایید", Spec{Action: Longer, Parts: 2}, RuleEnd},
		{"friendly changed nothing", sale, sale, Spec{Action: Friendly}, RuleUnchanged},
		{"ZWNJ broken", winter, strings.Replace(winter, "می‌خواهیم", "می خواهیم", 1) + " سلام!", Spec{Action: Longer, Parts: 3}, RuleZWNJ},
		{"suffix apart", "کفش‌ها رسید.", "کفش ها رسید!", Spec{Action: Friendly}, RuleZWNJ},
		{"dangling preposition", meet, "حضور شما در جلسه فردا الزامی است. لطفا تا.", Spec{Action: Longer}, RuleDangling},
		{"doubled word", meet, "حضور شما در جلسه جلسه فردا الزامی است!", Spec{Action: Friendly}, RuleDoubled},
		{"Arabic letters", meet, "حضور شما در جلسه فردا الزامي است!", Spec{Action: Friendly}, RuleArabic},
		{"open quote", meet, "«حضور شما در جلسه فردا الزامی است!", Spec{Action: Friendly}, RuleBalance},
		{"open bracket", meet, "حضور شما (در جلسه فردا الزامی است!", Spec{Action: Friendly}, RuleBalance},
		{"stray comma", meet, "حضور شما در جلسه فردا الزامی است،.", Spec{Action: Friendly}, RulePunct},
		{"invented discount", sale, sale + " تا ۵۰ درصد بیشتر!", Spec{Action: Longer, Parts: 3}, RuleInvented},
		{"invented link", sale, sale + "\nhttps://evil.example.com", Spec{Action: Longer, Parts: 3}, RuleInvented},
		{"invented phone", sale, sale + " تماس: 09121112233", Spec{Action: Longer, Parts: 3}, RuleInvented},
		{"variable in a link", "خرید از https://shop.ir/a", "خرید از https://shop.ir/a/{name} کنید!", Spec{Action: Longer}, RuleLinkVar},
		{"brand lost", sale, strings.Replace(sale, "کفش آریا: ", "", 1), Spec{Action: Shorter, Brand: "کفش آریا"}, RuleBrand},
		{"ad without brand", "", "تخفیف ویژه زمستانی!", Spec{Action: Chat, Brand: "کفش آریا", Ad: true}, RuleBrand},
		{"over budget", meet, strings.Repeat("حضور شما در جلسه فردا الزامی است. ", 4), Spec{Action: Longer, Parts: 1}, RuleBudget},
		{"shorter not shorter", meet, "حضور شما در جلسه فردا الزامی است!", Spec{Action: Shorter}, RuleLength},
		{"formal keeps colloquial", "سلام! الان بیا.", "با سلام و احترام، الان بیا.", Spec{Action: Formal}, RuleTone},
		{"friendly keeps formal", "مراجعه نمایید.", "سلام! مراجعه نمایید.", Spec{Action: Friendly}, RuleTone},
		{"empty", meet, "  ", Spec{Action: Shorter}, RuleEmpty},
	}
	for _, c := range cases {
		fs := Check(c.in, c.out, c.sp)
		if !slices.ContainsFunc(fs, func(f Fault) bool { return f.Rule == c.want }) {
			t.Errorf("%s: %v, want a %s fault", c.name, fs, c.want)
		}
		for _, f := range fs {
			if m := f.Message(); m == "" || strings.Contains(m, "%") {
				t.Errorf("%s: message %q", c.name, m)
			}
		}
	}
}

// TestCheckAccepts: correct rewrites pass, and a reply is not blamed for what
// the user wrote (a text without an end mark, «می خواهیم» typed with a space).
func TestCheckAccepts(t *testing.T) {
	cases := []struct{ in, out string }{
		{"ما می خواهیم شما را ببینیم. ساعت ۱۹", "سلام! ما می خواهیم شما را ببینیم. ساعت ۱۹"},
		{"مشتری گرامی، کد تایید شما: ۱۲۳۴۵", "با سلام و احترام، مشتری گرامی، کد تایید شما: ۱۲۳۴۵"},
		{"تخفیف ۲۰٪ تا ۱۵ آذر", "با سلام و احترام، تخفیف ۲۰ درصدی تا ۱۵ آذر"},
	}
	for _, c := range cases {
		if fs := Check(c.in, c.out, Spec{Action: Formal, Parts: 2}); len(fs) > 0 {
			t.Errorf("%q → %q: %v", c.in, c.out, fs)
		}
	}
}

// TestFactKeys: writings of the same fact share a key; different facts do not.
func TestFactKeys(t *testing.T) {
	same := [][2]string{{"۲۰٪", "20 درصد"}, {"۲۵ درصدي", "۲۵ درصدی"}, {"۵۰ هزار تومانی", "۵۰ هزار تومان"},
		{"۵ روزه", "۵ روز"}, {"۱۴۰۳/۰۹/۱۰", "1403/09/10"}, {"۲,۵۰۰,۰۰۰ ریال", "۲٬۵۰۰٬۰۰۰ ریال"}}
	for _, p := range same {
		a, b := factsOf(p[0]), factsOf(p[1])
		if len(a) != 1 || len(b) != 1 || a[0].key != b[0].key {
			t.Errorf("%q %v and %q %v should be the same fact", p[0], a, p[1], b)
		}
	}
	differ := [][2]string{{"۲۰ درصد", "۲۰ هفته"}, {"۲۰ درصد", "۲۰"}, {"۲,۵۰۰,۰۰۰ ریال", "۲,۵۰۰,۰۰۰ تومان"}, {"۱۵ آذر", "۱۵ دی"}}
	for _, p := range differ {
		if a, b := factsOf(p[0]), factsOf(p[1]); len(a) != 1 || len(b) != 1 || a[0].key == b[0].key {
			t.Errorf("%q %v and %q %v should differ", p[0], a, p[1], b)
		}
	}
}
