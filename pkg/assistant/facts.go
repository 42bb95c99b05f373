package assistant

import (
	"regexp"
	"strings"

	"github.com/chapar/chapar/pkg/validate"
)

// A fact is a piece of a text that a rewrite must keep as written: a link, an
// e-mail address, a placeholder, the opt-out line, a code, a phone or card
// number, a date, a time, a price, a percentage, a quantity or a number.
// Surface is how the text writes it; key is what two writings share: digits
// made Latin, «٪»، «درصد» and «درصدی» the same percentage, «تومانی» the same
// as «تومان», «۵ روزه» the same as «۵ روز». Nothing else is normalised.
type fact struct {
	surface string
	key     string
	// value is the fact's number (Latin digits, separators kept) for the
	// invented-fact rule, "" when it has none.
	value string
}

const (
	digit      = `[0-9۰-۹٠-٩]`
	monthNames = `فروردین|اردیبهشت|خرداد|تیر|مرداد|شهریور|مهر|آبان|آذر|دی|بهمن|اسفند`
	// counters are the nouns a number counts; their key drops «ه»/«ی» («۵ روزه» = «۵ روز»).
	counters = `دقیقه|ثانیه|ساعت|روزه|روز|هفته|ماهه|ماه|ساله|سال|نفره|نفر|ستاره|جلسه|قسط|متری|متر|گرم|عیار|کیلو|شب|کودک|عدد|بار`
)

// How a fact's key and value are made: kept as written (a link, a code), its
// digits the value (a phone number, a date), or a number and its unit.
const (
	exact = iota
	digits
	quantity
)

// factPatterns find facts, most specific first: a text matched by one is taken
// out before the next runs (a link's digits are not a number of their own).
var factPatterns = []struct {
	re   *regexp.Regexp
	kind int
}{
	{regexp.MustCompile(`(?m)^@[A-Za-z0-9.-]+ #[A-Za-z0-9]+$`), exact},                 // WebOTP origin line
	{regexp.MustCompile(`<#>`), exact},                                                 // SMS Retriever prefix
	{regexp.MustCompile(`[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+`), exact}, // e-mail
	{linkPattern, exact},
	{regexp.MustCompile(`%[A-Za-z_][A-Za-z0-9_]*%|\{\{?[^{}\s]+\}?\}_*`), exact}, // variables, tags, tracked links
	{regexp.MustCompile(`لغو\s*(?:11|۱۱)`), exact},
	{regexp.MustCompile(`\b[A-Za-z][A-Za-z0-9+/=_-]*[0-9][A-Za-z0-9+/=_-]*\b`), exact},                     // Latin code: A55, IR452
	{regexp.MustCompile(`[*#][0-9۰-۹*#]*` + digit + `[0-9۰-۹*]*#`), digits},                                // USSD code
	{regexp.MustCompile(digit + `+\*{2,}` + digit + `+`), digits},                                          // masked account
	{regexp.MustCompile(digit + `{3,}(?:-` + digit + `{3,})+`), digits},                                    // card, phone with dashes
	{regexp.MustCompile(`(?:\+|00|0|۰)` + digit + `(?:[ -]?` + digit + `){5,}|` + digit + `{7,}`), digits}, // phone, long code
	{regexp.MustCompile(digit + `{2,4}/` + digit + `{1,2}/` + digit + `{1,4}`), digits},                    // date 1403/09/10
	{regexp.MustCompile(digit + `{1,2}:` + digit + `{2}`), digits},                                         // time 16:30
	{regexp.MustCompile(digit + `+(?:[,٬]` + digit + `{3})*(?:[.٫]` + digit + `+)?` + // number and its unit
		`(?:\s*(?:٪|%)|\s*درصدی?|(?:\s*(?:هزار|میلیون|میلیارد))?\s*(?:تومانی?|ریالی?)|\s*(?:هزار|میلیون|میلیارد)|` +
		`\s+(?:` + monthNames + `)|\s*(?:` + counters + `))?`), quantity},
}

// unitKeys map a unit as written to its key.
var unitKeys = strings.NewReplacer("درصدی", "%", "درصد", "%", "٪", "%", "تومانی", "تومان", "ریالی", "ریال",
	"روزه", "روز", "ماهه", "ماه", "ساله", "سال", "نفره", "نفر", "متری", "متر")

var numberPart = regexp.MustCompile(`^[0-9]+(?:,[0-9]{3})*(?:\.[0-9]+)?`)

// factsOf lists the facts of text (Arabic letters read as Persian).
func factsOf(text string) []fact {
	var out []fact
	scanFacts(text, func(f fact) string {
		out = append(out, f)
		return " "
	})
	return out
}

// scanFacts finds the facts of text and replaces each with what each returns
// for it (a replacement keeps the later patterns off the fact's characters).
func scanFacts(text string, each func(fact) string) string {
	text = normalizeLetters(text)
	for _, p := range factPatterns {
		text = p.re.ReplaceAllStringFunc(text, func(m string) string {
			f := newFact(m, p.kind)
			return each(f) + m[len(f.surface):] // trailing punctuation stays
		})
	}
	return text
}

func newFact(surface string, kind int) fact {
	s := strings.TrimRight(surface, ".,،!؟")
	key := unpadLinks(validate.ToLatinDigits(strings.NewReplacer("٬", ",", "٫", ".").Replace(s)))
	f := fact{surface: s, key: key}
	switch kind {
	case digits:
		f.value = digitsOnly(key)
	case quantity:
		num := numberPart.FindString(key)
		unit := strings.Join(strings.Fields(key[len(num):]), " ")
		f.key, f.value = strings.TrimSpace(num+" "+unitKeys.Replace(unit)), num
	}
	return f
}

// keysOf is the set of the facts' keys.
func keysOf(fs []fact) map[string]bool {
	out := make(map[string]bool, len(fs))
	for _, f := range fs {
		out[f.key] = true
	}
	return out
}

// arabicLetters are the Arabic forms of Persian letters that keyboards mix in.
var arabicLetters = strings.NewReplacer("ي", "ی", "ك", "ک", "ى", "ی")

// normalizeLetters writes Arabic ي, ك and ى as the Persian ی and ک (the same
// letters to a reader; every model's reply is given them this way).
func normalizeLetters(s string) string { return arabicLetters.Replace(s) }
