package assistant

import (
	"regexp"
	"strings"

	"github.com/chapar/chapar/pkg/sms"
)

// A rule replaces a word or phrase standing on its own (between spaces or
// punctuation, never inside another word) with another. Every rule of the
// offline model swaps a whole grammatical unit for another of the same role
// (a clause opener for a clause opener, a verb for a verb), so no rule can
// leave a sentence without its verb or a preposition without its object.
type rule struct{ from, to string }

// edge is what may stand around a whole word in Persian text.
const edge = `(^|[\s،,.!?؟:;«»()\-])`
const edgeEnd = `($|[\s،,.!?؟:;«»()\-])`

type compiled struct {
	re *regexp.Regexp
	to string
}

func compile(rules []rule) []compiled {
	out := make([]compiled, len(rules))
	for i, r := range rules {
		out[i] = compiled{regexp.MustCompile(edge + regexp.QuoteMeta(r.from) + edgeEnd), "${1}" + r.to + "${2}"}
	}
	return out
}

// apply runs the rules over s (twice, so neighbouring matches sharing an edge
// are all replaced) and tidies the spacing.
func apply(s string, rules []compiled) string {
	for range 2 {
		for _, r := range rules {
			s = r.re.ReplaceAllString(s, r.to)
		}
	}
	return tidy(s)
}

// shortRules drop what carries no meaning (announcing phrases, intensifiers,
// praise) and put a shorter equal for a wordy phrase. Longer phrases come first.
var shortRules = compile(shortRuleList)

var shortRuleList = []rule{
	{"بدین وسیله به اطلاع می‌رساند که", ""}, {"بدینوسیله به اطلاع می‌رساند که", ""}, {"بدین وسیله به اطلاع می‌رساند", ""},
	{"به اطلاع می‌رساند که", ""}, {"به اطلاع می‌رساند", ""}, {"به اطلاع می‌رسانیم که", ""}, {"به اطلاع می‌رسانیم", ""},
	{"بدینوسیله", ""}, {"بدین وسیله", ""}, {"با توجه به اینکه", "چون"}, {"با توجه به این که", "چون"},
	{"در صورتی که", "اگر"}, {"در صورتیکه", "اگر"}, {"به منظور", "برای"}, {"جهت", "برای"}, {"در حال حاضر", "اکنون"},
	{"هم اکنون", "اکنون"}, {"هم‌اکنون", "اکنون"}, {"می‌باشد", "است"}, {"میباشد", "است"}, {"می باشد", "است"},
	{"می‌باشند", "هستند"}, {"می‌گردد", "می‌شود"}, {"گردید", "شد"}, {"خواهشمند است", "لطفا"}, {"خواهشمندیم", "لطفا"},
	{"نسبت به پرداخت آن اقدام نمایید", "آن را پرداخت نمایید"}, {"به هیچ عنوان", "هرگز"},
	{"در واقع", ""}, {"همچنین", ""}, {"واقعا", ""}, {"واقعاً", ""}, {"کاملا", ""}, {"کاملاً", ""}, {"بسیار", ""},
	{"خیلی", ""}, {"دقیقا", ""}, {"دقیقاً", ""}, {"قطعا", ""}, {"قطعاً", ""}, {"هر چه سریع‌تر", ""}, {"هرچه سریع‌تر", ""},
	{"عزیز و گرامی", "گرامی"}, {"ویژه و استثنایی", "ویژه"}, {"فوق‌العاده", "ویژه"}, {"فوق العاده", "ویژه"},
	{"شگفت‌انگیز", ""}, {"استثنایی", ""}, {"بی‌نظیر", ""}, {"تمامی", "همه"}, {"کلیه", "همه"},
	{"این پیشنهاد", "پیشنهاد"}, {"این کد", "کد"}, {"این تخفیف", "تخفیف"},
}

// fillers are whole sentences (or clauses) without information: «shorter»
// drops them. They are matched after shortRules ran.
var fillers = regexp.MustCompile(`^(?:` + strings.Join([]string{
	`(?:این )?فرصت(?: ویژه| طلایی)? را از دست ندهید`,
	`(?:ما )?منتظر(?: حضور)?(?: گرم| سبز)? شما هستیم`, `منتظرتان هستیم`, `منتظرتیم`, `منتظرتونیم`,
	`فرصت (?:ویژه|خوبی|طلایی|فوق‌العاده|استثنایی)(?:‌ای|ای) است`,
	`همین (?:امروز|حالا|اکنون) (?:اقدام|سفارش|خرید|ثبت‌نام) (?:کنید|نمایید|دهید|بدهید)`,
	`از (?:طعم|خرید) آن لذت خواهید برد`, `روز(?:ی)? خوبی داشته باشید`,
	`(?:از )?(?:همراهی|اعتماد|انتخاب|حسن انتخاب|صبر و شکیبایی|شکیبایی|صبوری) شما (?:سپاسگزاریم|ممنونیم|متشکریم)`,
	`با (?:تشکر|سپاس)(?: از (?:همراهی|خرید|اعتماد) شما)?`,
	`(?:ظرفیت|تعداد|موجودی) محدود است`,
}, "|") + `)$`)

// salutation is a greeting at the start of a text; address the reader named
// after it («مشتری گرامی،»).
var (
	salutation = regexp.MustCompile(`^(?:با سلام و احترام|با سلام|سلام|درود)\s*[،,!.]?\s*`)
	address    = regexp.MustCompile(`^(?:مشتری|مشتریان|مشترک|مشترکین|دوست|دوستان|همراه|والدین|کاربر|بیمار|مسافر|داوطلب)\s+(?:گرامی|عزیز|محترم)\s*[،,!]\s*`)
	// addressed is a text that opens with a salutation, or whose first clause
	// addresses the reader («مشتری گرامی %name%،», «%name% عزیز،»).
	addressed = regexp.MustCompile(`^(?:(?:با سلام|سلام|درود)(?:\s|[،,!.]|$)|[^،,!\n]{0,40}\s(?:عزیز|گرامی|محترم)(?:\s|[،,!]|$))`)
)

// friendlyRules move a text from the formal register to the friendly one;
// formalRules the other way. Longer phrases come first.
var friendlyRules = compile(friendlyRuleList)

var friendlyRuleList = []rule{
	{"با سلام و احترام", "سلام"}, {"با سلام", "سلام"}, {"مشتری گرامی", "دوست عزیز"}, {"مشتریان گرامی", "دوستان عزیز"},
	{"مشترک گرامی", "دوست عزیز"}, {"مشترکین گرامی", "دوستان عزیز"}, {"بیمار گرامی", "بیمار عزیز"},
	{"مسافر گرامی", "مسافر عزیز"}, {"والدین گرامی", "والدین عزیز"}, {"داوطلب گرامی", "داوطلب عزیز"},
	{"کاربر گرامی", "کاربر عزیز"}, {"همراه گرامی", "همراه عزیز"},
	{"بدین وسیله به اطلاع می‌رساند که", ""}, {"به اطلاع می‌رساند که", ""}, {"به اطلاع می‌رساند", ""},
	{"بدینوسیله", ""}, {"بدین وسیله", ""}, {"منتظر حضور گرم شما هستیم", "منتظرتان هستیم"},
	{"منتظر حضور شما هستیم", "منتظرتان هستیم"}, {"عرض می‌نماییم", "می‌گوییم"},
	{"می‌باشد", "است"}, {"میباشد", "است"}, {"می باشد", "است"}, {"می‌باشند", "هستند"}, {"می‌گردد", "می‌شود"},
	{"گردیده", "شده"}, {"گردید", "شد"}, {"می‌نمایید", "می‌کنید"}, {"می‌نماییم", "می‌کنیم"}, {"می‌نماید", "می‌کند"},
	{"نمایید", "کنید"}, {"بفرمایید", "کنید"}, {"فرمایید", "کنید"}, {"خواهشمند است", "لطفا"}, {"خواهشمندیم", "لطفا"},
	{"سپاسگزاریم", "ممنونیم"}, {"سپاس‌گزاریم", "ممنونیم"}, {"جهت", "برای"}, {"هم اکنون", "همین حالا"},
	{"هم‌اکنون", "همین حالا"},
}

var formalRules = compile(formalRuleList)

var formalRuleList = []rule{
	{"دوست عزیز", "مشتری گرامی"}, {"دوستان عزیز", "مشتریان گرامی"}, {"مشتری عزیز", "مشتری گرامی"},
	{"مشتریان عزیز", "مشتریان گرامی"}, {"بیمار عزیز", "بیمار گرامی"}, {"مسافر عزیز", "مسافر گرامی"},
	{"والدین عزیز", "والدین گرامی"}, {"کاربر عزیز", "کاربر گرامی"}, {"همراه عزیز", "همراه گرامی"},
	{"منتظرتیم", "منتظر حضور شما هستیم"}, {"منتظرتونیم", "منتظر حضور شما هستیم"},
	{"منتظرتان هستیم", "منتظر حضور شما هستیم"}, {"منتظر شما هستیم", "منتظر حضور شما هستیم"},
	{"میتونید", "می‌توانید"}, {"می‌تونید", "می‌توانید"}, {"میشه", "می‌شود"}, {"می‌شه", "می‌شود"},
	{"نمیشه", "نمی‌شود"}, {"واسه", "برای"}, {"براتون", "برای شما"}, {"بهتون", "به شما"}, {"کنین", "کنید"},
	{"بگیرین", "بگیرید"}, {"دارین", "دارید"}, {"الان", "اکنون"}, {"همین حالا", "هم‌اکنون"}, {"حالا", "اکنون"},
	{"ممنونیم", "سپاسگزاریم"}, {"متشکریم", "سپاسگزاریم"}, {"ممنون از", "با سپاس از"},
	{"تبریک می‌گوییم", "تبریک عرض می‌نماییم"}, {"می‌کنید", "می‌نمایید"}, {"کنید", "نمایید"},
	{"می‌کنیم", "می‌نماییم"}, {"می‌شود", "می‌گردد"}, {"شد", "گردید"},
}

// variableAddress is a placeholder addressed as a friend («%name% عزیز»).
var variableAddress = regexp.MustCompile(`(%[A-Za-z_][A-Za-z0-9_]*%|\{[^{}\s]+\})\s+عزیز`)

var spaces = regexp.MustCompile(`[ \t]+`)
var spaceBeforePunct = regexp.MustCompile(`\s+([،,.!?؟:;»)])`)
var emptyPunct = regexp.MustCompile(`(^|[\n.!؟])\s*[،,]\s*`)
var doublePunct = regexp.MustCompile(`([.!؟])\s*[.،,!]+`)
var commaBeforeEnd = regexp.MustCompile(`[،,]\s*([.!؟])`)

// tidy collapses spaces, removes spaces before punctuation and commas left alone
// by a removed phrase, and trims every line.
func tidy(s string) string {
	s = spaces.ReplaceAllString(s, " ")
	s = spaceBeforePunct.ReplaceAllString(s, "$1")
	s = emptyPunct.ReplaceAllString(s, "$1 ")
	s = commaBeforeEnd.ReplaceAllString(s, "$1")
	s = doublePunct.ReplaceAllString(s, "$1")
	lines := strings.Split(s, "\n")
	out := lines[:0]
	for _, l := range lines {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// parts counts the parts of text as sent.
func parts(text string, cancel11 bool) int { return sms.Count(text, cancel11).Parts }

// fits reports whether text is within the budget of parts.
func fits(text string, budget int, cancel11 bool) bool { return parts(text, cancel11) <= budget }

var sentenceEnd = regexp.MustCompile(`[^.!؟\n]+[.!؟]*\n?`)

// sentences splits text into sentences, each with its end mark.
func sentences(text string) []string { return sentenceEnd.FindAllString(text, -1) }

// Budget clamps a part budget to 1–3 (0 means 1).
func Budget(n int) int { return min(max(n, 1), 3) }
