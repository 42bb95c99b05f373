package assistant

import (
	"regexp"
	"strings"
	"unicode"

	"github.com/chapar/chapar/pkg/sms"
)

// A rule replaces a word or phrase standing on its own (between spaces or
// punctuation, never inside another word) with another.
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

// fillers carry no meaning in a marketing SMS; redundant phrases have a shorter
// equal. Longer phrases come first so they win over their parts.
var shortRules = compile([]rule{
	{"بدین وسیله به اطلاع می‌رساند که", ""}, {"بدین وسیله به اطلاع می‌رساند", ""}, {"به اطلاع می‌رساند که", ""},
	{"به اطلاع می‌رساند", ""}, {"به اطلاع می‌رسانیم", ""},
	{"بدینوسیله", ""}, {"بدین وسیله", ""}, {"با توجه به اینکه", "چون"}, {"با توجه به این که", "چون"},
	{"در صورتی که", "اگر"}, {"در صورتیکه", "اگر"}, {"به منظور", "برای"}, {"جهت", "برای"},
	{"در حال حاضر", "اکنون"}, {"هم اکنون", "اکنون"}, {"هم‌اکنون", "اکنون"}, {"در طول مدت", "در"},
	{"به صورت کاملا", ""}, {"به صورت", "با"}, {"می‌باشد", "است"}, {"میباشد", "است"}, {"می باشد", "است"},
	{"می‌گردد", "می‌شود"}, {"خواهشمند است", "لطفا"}, {"خواهشمندیم", "لطفا"},
	{"در واقع", ""}, {"همچنین", ""}, {"واقعا", ""}, {"واقعاً", ""}, {"کاملا", ""}, {"کاملاً", ""},
	{"بسیار", ""}, {"خیلی", ""}, {"دقیقا", ""}, {"دقیقاً", ""}, {"قطعا", ""}, {"قطعاً", ""},
	{"لطفا", ""}, {"لطفاً", ""}, {"عزیز و گرامی", "گرامی"}, {"ویژه و استثنایی", "ویژه"},
	{"فوق‌العاده", "ویژه"}, {"فوق العاده", "ویژه"}, {"فرصت را از دست ندهید", ""}, {"از دست ندهید", ""},
	{"به هیچ عنوان", "هرگز"}, {"تمامی", "همه"}, {"کلیه", "همه"}, {"فقط", ""},
	{"این پیشنهاد", "پیشنهاد"}, {"این کد", "کد"}, {"این تخفیف", "تخفیف"}, {"این فرصت", "فرصت"},
})

// trimRules drop what "shorter" may lose beyond fillers: adjectives of praise.
var trimRules = compile([]rule{
	{"تازه", ""}, {"جدید", ""}, {"بزرگ", ""}, {"شگفت‌انگیز", ""}, {"استثنایی", ""}, {"عالی", ""},
	{"هر چه سریع‌تر", ""}, {"هرچه سریع‌تر", ""},
})

// greeting is a salutation at the start of a text ("shorter" drops it).
var greeting = regexp.MustCompile(`^(با سلام و احترام|با سلام|سلام دوست عزیز|سلام|درود)\s*[،,!.]?\s*`)

// formalRules move a text to the formal register; friendlyRules the other way.
var formalRules = compile([]rule{
	{"دوست عزیز", "مشتری گرامی"}, {"دوستان عزیز", "مشتریان گرامی"}, {"رفیق", "مشتری گرامی"},
	{"میتونی", "می‌توانید"}, {"می‌تونی", "می‌توانید"}, {"میتونید", "می‌توانید"}, {"می‌تونید", "می‌توانید"},
	{"میشه", "می‌شود"}, {"می‌شه", "می‌شود"}, {"هست", "است"}, {"داری", "دارید"}, {"بیا", "مراجعه فرمایید"},
	{"بیاید", "مراجعه فرمایید"}, {"بخر", "خریداری نمایید"}, {"بخرید", "خریداری نمایید"},
	{"کنید", "نمایید"}, {"کن", "نمایید"}, {"بزن", "مراجعه نمایید"}, {"بزنید", "مراجعه نمایید"},
	{"ممنون", "سپاسگزاریم"}, {"مرسی", "سپاسگزاریم"}, {"خیلی", "بسیار"}, {"الان", "اکنون"},
	{"واسه", "برای"}, {"برات", "برای شما"}, {"براتون", "برای شما"}, {"تو", "شما"}, {"بهت", "به شما"},
	{"منتظرتیم", "منتظر حضور شما هستیم"}, {"منتظرتونیم", "منتظر حضور شما هستیم"},
})

var friendlyRules = compile([]rule{
	{"با سلام و احترام", "سلام"}, {"با سلام", "سلام"}, {"مشتری گرامی", "دوست عزیز"}, {"مشتریان گرامی", "دوستان عزیز"},
	{"مشترک گرامی", "دوست عزیز"}, {"مشترکین گرامی", "دوستان عزیز"}, {"می‌باشد", "است"}, {"میباشد", "است"},
	{"می باشد", "است"}, {"می‌گردد", "می‌شود"}, {"نمایید", "کنید"}, {"فرمایید", "کنید"}, {"بفرمایید", "کنید"},
	{"خریداری کنید", "بخرید"}, {"مراجعه کنید", "سر بزنید"}, {"خواهشمند است", "لطفا"}, {"خواهشمندیم", "لطفا"},
	{"سپاسگزاریم", "ممنونیم"}, {"سپاس‌گزاریم", "ممنونیم"}, {"جهت", "برای"}, {"هم اکنون", "همین حالا"}, {"هم‌اکنون", "همین حالا"}, {"اکنون", "همین حالا"},
	{"بدینوسیله", ""}, {"بدین وسیله", ""}, {"به اطلاع می‌رساند که", ""}, {"به اطلاع می‌رساند", ""}, {"منتظر حضور شما هستیم", "منتظرتان هستیم"},
})

var spaces = regexp.MustCompile(`[ \t]+`)
var spaceBeforePunct = regexp.MustCompile(`\s+([،,.!?؟:;»)])`)
var emptyPunct = regexp.MustCompile(`(^|[\n.!؟])\s*[،,]\s*`)
var doublePunct = regexp.MustCompile(`([.!؟])\s*[.،,!]+`)

// tidy collapses spaces, removes spaces before punctuation and commas left alone
// by a removed filler, and trims every line.
func tidy(s string) string {
	s = spaces.ReplaceAllString(s, " ")
	s = spaceBeforePunct.ReplaceAllString(s, "$1")
	s = emptyPunct.ReplaceAllString(s, "$1 ")
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

// address is a salutation of the reader at the start of a text.
var address = regexp.MustCompile(`^(مشتری|مشتریان|مشترک|مشترکین|دوست|دوستان|همراه|والدین|کاربر)\s+(گرامی|عزیز)\s*[،,!]?\s*`)

// months are the Persian month names: with their day they make a date.
var months = map[string]bool{"فروردین": true, "اردیبهشت": true, "خرداد": true, "تیر": true, "مرداد": true, "شهریور": true,
	"مهر": true, "آبان": true, "آذر": true, "دی": true, "بهمن": true, "اسفند": true}

// meaningful reports whether a word carries meaning the assistant must keep: a
// number, a date, a percentage, a variable or tag ({name}, %name%, {link:7}), a
// link, or a word of the brand.
func meaningful(word string, brand []string) bool {
	for _, r := range word {
		if unicode.IsDigit(r) || r == '%' || r == '٪' || r == '{' { // numbers, variables, tags
			return true
		}
	}
	w := strings.Trim(word, "،,.!?؟:;«»()")
	if months[w] {
		return true
	}
	if strings.Contains(w, "://") || strings.HasPrefix(w, "www.") {
		return true
	}
	for _, b := range brand {
		if w == b {
			return true
		}
	}
	return false
}

// brandWords splits the brand into the words a text must keep.
func brandWords(brand string) []string { return strings.Fields(brand) }

// parts counts the parts of text as sent.
func parts(text string, cancel11 bool) int { return sms.Count(text, cancel11).Parts }

// fits reports whether text is within the budget of parts.
func fits(text string, budget int, cancel11 bool) bool { return parts(text, cancel11) <= budget }

var sentenceEnd = regexp.MustCompile(`[^.!؟\n]+[.!؟]*\n?`)

// sentences splits text into sentences, each with its end mark.
func sentences(text string) []string { return sentenceEnd.FindAllString(text, -1) }

// shorten removes fillers and redundant phrases and, while the text is over the
// budget, drops sentences without meaning words and then words without meaning
// from the end. Meaning words go only when they alone exceed the budget.
func shorten(text, brand string, budget int, cancel11 bool) string {
	text = apply(text, shortRules)
	if fits(text, budget, cancel11) {
		return text
	}
	bw := brandWords(brand)
	text = dropSentences(text, bw, budget, cancel11)
	if fits(text, budget, cancel11) {
		return text
	}
	text = greeting.ReplaceAllString(text, "")
	text = address.ReplaceAllString(text, "")
	if fits(text, budget, cancel11) {
		return text
	}
	return dropWords(text, bw, budget, cancel11)
}

// dropSentences removes sentences without meaning words, last first (never the
// first sentence), until the text fits.
func dropSentences(text string, brand []string, budget int, cancel11 bool) string {
	ss := sentences(text)
	for i := len(ss) - 1; i > 0 && !fits(strings.Join(ss, ""), budget, cancel11); i-- {
		if !sentenceMeaningful(ss[i], brand) {
			ss = append(ss[:i], ss[i+1:]...)
		}
	}
	return tidy(strings.Join(ss, ""))
}

func sentenceMeaningful(s string, brand []string) bool {
	for _, w := range strings.Fields(s) {
		if meaningful(w, brand) {
			return true
		}
	}
	return false
}

// dropWords removes words without meaning from the end (keeping the last, the
// verb of a Persian sentence) until the text fits, then, if the meaning words
// alone are too long, cuts the text at a word.
func dropWords(text string, brand []string, budget int, cancel11 bool) string {
	words := strings.Fields(text)
	for i := len(words) - 2; i >= 0 && !fits(strings.Join(words, " "), budget, cancel11); i-- {
		if !meaningful(words[i], brand) && len(words) > 1 {
			words = append(words[:i], words[i+1:]...)
		}
	}
	for len(words) > 1 && !fits(strings.Join(words, " "), budget, cancel11) {
		words = words[:len(words)-1]
	}
	return tidy(strings.Join(words, " "))
}
