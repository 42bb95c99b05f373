package assistant

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/chapar/chapar/pkg/persian"
)

// Rule names a rule of correct, meaning-preserving Persian that a reply must
// keep (docs/assistant.md, «The output checker»).
type Rule string

// The rules of Check.
const (
	RuleEmpty     Rule = "empty"         // the reply has no text
	RuleFact      Rule = "fact"          // a fact of the text is missing
	RuleBrand     Rule = "brand"         // the brand is missing
	RuleInvented  Rule = "invented"      // a number, link or placeholder the user never wrote
	RuleLinkVar   Rule = "link-variable" // a placeholder inside a link
	RuleBudget    Rule = "budget"        // more parts than the budget
	RuleArabic    Rule = "arabic"        // Arabic ي or ك
	RuleBalance   Rule = "balance"       // an unbalanced quote or bracket
	RulePunct     Rule = "punctuation"   // punctuation left alone or doubled
	RuleDangling  Rule = "dangling"      // a sentence or clause ending in a preposition or particle
	RuleDoubled   Rule = "doubled"       // the same word twice in a row
	RuleZWNJ      Rule = "zwnj"          // «می خواهیم»: a space or nothing where a ZWNJ belongs
	RuleEnd       Rule = "end"           // the last sentence has no end mark
	RuleCut       Rule = "cut"           // a sentence lost its verb or its end
	RuleTone      Rule = "tone"          // a word of the other register
	RuleUnchanged Rule = "unchanged"     // a rewrite that changed nothing
	RuleLength    Rule = "length"        // «shorter» not shorter, «longer» not longer
)

// Fault is one rule a reply breaks and the word or fact concerned.
type Fault struct {
	Rule   Rule
	Detail string
}

// faultText are the Persian explanations of the rules (%s: the detail).
var faultText = map[Rule]string{
	RuleEmpty:     "پاسخ خالی بود",
	RuleFact:      "«%s» در پاسخ نبود",
	RuleBrand:     "نام تجاری «%s» در پاسخ نبود",
	RuleInvented:  "«%s» در متن شما نبود و دستیار آن را از خودش افزوده بود",
	RuleLinkVar:   "درون پیوند «%s» متغیر بود",
	RuleBudget:    "پاسخ %s بود",
	RuleArabic:    "حرف عربی «%s» در پاسخ بود",
	RuleBalance:   "«%s» باز و بسته نشده بود",
	RulePunct:     "نشانه‌گذاری نادرست «%s» در پاسخ بود",
	RuleDangling:  "جمله‌ای با «%s» تمام شده بود",
	RuleDoubled:   "واژه «%s» دو بار پشت سر هم آمده بود",
	RuleZWNJ:      "«%s» بدون نیم‌فاصله نوشته شده بود",
	RuleEnd:       "جمله آخر نشانه پایان نداشت",
	RuleCut:       "جمله‌ای نیمه‌کاره مانده بود (واژه «%s» افتاده بود)",
	RuleTone:      "واژه «%s» با لحن خواسته‌شده نمی‌خواند",
	RuleUnchanged: "متن تغییری نکرده بود",
	RuleLength:    "پاسخ %s از متن شما نبود",
}

// Message is the problem in Persian, as the panel shows it.
func (p Fault) Message() string {
	f := faultText[p.Rule]
	if !strings.Contains(f, "%s") {
		return f
	}
	return fmt.Sprintf(f, p.Detail)
}

// Spec is what a reply is checked against: the task's action, brand and part
// budget, and Sources, all the user wrote (a reply's facts must come from it).
type Spec struct {
	Action   Action
	Brand    string
	Parts    int
	Cancel11 bool
	Sources  string
	// Ad says the reply is an advertisement (it must name the brand).
	Ad bool
}

// Check lists the problems of out, a reply to the text in: the facts of in kept
// (a rewrite), no fact invented, the brand kept, the part budget, the register
// asked for, and no grammar problem that in did not have already. An empty list
// means the reply may be shown.
func Check(in, out string, sp Spec) []Fault {
	if strings.TrimSpace(out) == "" {
		return []Fault{{RuleEmpty, ""}}
	}
	var ps []Fault
	for _, r := range []string{"ي", "ك", "ى"} {
		if strings.Contains(out, r) {
			ps = append(ps, Fault{RuleArabic, r})
		}
	}
	nIn, nOut := normalizeLetters(in), normalizeLetters(out)
	ps = append(ps, factFaults(nIn, nOut, sp)...)
	if got, budget := parts(out, sp.Cancel11), Budget(sp.Parts); got > budget {
		ps = append(ps, Fault{RuleBudget, fmt.Sprintf("%s بخش، بیش از حداکثر %s بخش",
			persian.Digits(fmt.Sprint(got)), persian.Digits(fmt.Sprint(budget)))})
	}
	m := &masker{ids: map[string]int{}}
	mIn, mOut := m.mask(nIn), m.mask(nOut)
	ps = append(ps, newFaults(grammar(mIn), grammar(mOut))...)
	ps = append(ps, zwnjLost(nIn, nOut)...)
	if sp.Action != Chat {
		ps = append(ps, cutSentences(mIn, mOut)...)
		ps = append(ps, rewriteFaults(nIn, nOut, sp.Action)...)
	}
	return ps
}

// factFaults: every fact of in is in out (a rewrite), every fact of out is
// the user's, no link holds a placeholder, and the brand stays.
func factFaults(in, out string, sp Spec) []Fault {
	var ps []Fault
	outFacts := factsOf(out)
	if sp.Action != Chat {
		have := keysOf(outFacts)
		for _, f := range factsOf(in) {
			if !have[f.key] {
				ps = append(ps, Fault{RuleFact, f.surface})
				have[f.key] = true // once per fact
			}
		}
	}
	src := factsOf(in + "\n" + sp.Sources)
	keys, values := keysOf(src), map[string]bool{}
	for _, f := range src {
		values[f.value] = f.value != ""
	}
	for _, f := range outFacts {
		if !keys[f.key] && !values[f.value] {
			ps = append(ps, Fault{RuleInvented, f.surface})
		}
	}
	for _, l := range linkPattern.FindAllString(out, -1) {
		if linkVariable.MatchString(l) {
			ps = append(ps, Fault{RuleLinkVar, l})
		}
	}
	brand := normalizeLetters(strings.TrimSpace(sp.Brand))
	if brand != "" && (sp.Ad || strings.Contains(in, brand)) && !strings.Contains(out, brand) {
		ps = append(ps, Fault{RuleBrand, sp.Brand})
	}
	return ps
}

// rewriteFaults: a rewrite changes the text, «shorter» shortens it, «longer»
// lengthens it, and a change of tone leaves no word of the other register.
func rewriteFaults(in, out string, a Action) []Fault {
	var ps []Fault
	if tidy(in) == tidy(out) {
		ps = append(ps, Fault{RuleUnchanged, ""})
	}
	nIn, nOut := utf8.RuneCountInString(tidy(in)), utf8.RuneCountInString(tidy(out))
	switch {
	case a == Shorter && nOut >= nIn:
		ps = append(ps, Fault{RuleLength, "کوتاه‌تر"})
	case a == Longer && nOut <= nIn:
		ps = append(ps, Fault{RuleLength, "بلندتر"})
	}
	markers := map[Action][]string{Friendly: formalMarkers, Formal: colloquialMarkers}[a]
	for _, w := range markers {
		if containsWord(out, w) {
			ps = append(ps, Fault{RuleTone, w})
		}
	}
	return ps
}

// newFaults are the problems of after that before did not have: a reply is
// not blamed for what the user wrote.
func newFaults(before, after []Fault) []Fault {
	had := map[Fault]int{}
	for _, p := range before {
		had[p]++
	}
	var out []Fault
	for _, p := range after {
		if had[p] > 0 {
			had[p]--
			continue
		}
		out = append(out, p)
	}
	return out
}

// formalMarkers are words of the formal register (a friendly reply has none);
// colloquialMarkers those of the colloquial one (a formal reply has none).
var (
	formalMarkers = []string{"با سلام و احترام", "مشتری گرامی", "مشتریان گرامی", "مشترک گرامی", "مشترکین گرامی",
		"نمایید", "می‌نمایید", "فرمایید", "بفرمایید", "می‌باشد", "می‌باشند", "می‌گردد", "گردید", "گردیده", "خواهشمند",
		"خواهشمندیم", "بدینوسیله", "بدین وسیله", "سپاسگزاریم", "سپاس‌گزاریم", "جهت", "به اطلاع می‌رساند", "می‌نماییم"}
	colloquialMarkers = []string{"میتونی", "می‌تونی", "میتونید", "می‌تونید", "میشه", "می‌شه", "نمیشه", "منتظرتیم",
		"منتظرتونیم", "رو", "باش", "بیا", "بخر", "بخری", "بزن", "داری", "دارین", "کنین", "برات", "بهت", "براتون",
		"بهتون", "واسه", "مهمون", "الان", "دوست عزیز", "دوستان عزیز", "تو", "عزیزم", "کن", "میتونین", "می‌تونین",
		"نمیتونی", "بخرین", "بیاین", "بزنین", "میخوای", "میخواین", "می‌خوای", "داره", "میکنه", "می‌کنه", "میشن", "هستش",
		"بگیر", "بده", "ببین", "اینجوری"}
)

// containsWord reports whether phrase stands in s as whole words.
func containsWord(s, phrase string) bool {
	for i := 0; ; {
		j := strings.Index(s[i:], phrase)
		if j < 0 {
			return false
		}
		start, end := i+j, i+j+len(phrase)
		before, _ := utf8.DecodeLastRuneInString(s[:start])
		after, _ := utf8.DecodeRuneInString(s[end:])
		if (start == 0 || !isWordRune(before)) && (end == len(s) || !isWordRune(after)) {
			return true
		}
		i = end
	}
}
