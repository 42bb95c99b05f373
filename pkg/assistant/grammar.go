package assistant

import (
	"fmt"
	"regexp"
	"strings"
	"unicode"
)

// The grammar rules of Check work on masked text: every fact is replaced by a
// word «§N» (N the same for the same fact in the text and the reply), so that
// the dot of a link or a decimal is not taken for the end of a sentence.
type masker struct{ ids map[string]int }

func (m *masker) mask(text string) string {
	return scanFacts(text, func(f fact) string {
		id, ok := m.ids[f.key]
		if !ok {
			id = len(m.ids) + 1
			m.ids[f.key] = id
		}
		return fmt.Sprintf("§%d", id)
	})
}

const zwnj = "\u200c"

// isWordRune is a letter, a digit, a ZWNJ or the mark of a masked fact.
func isWordRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r) || r == '\u200c' || r == '§' || r == '_'
}

// word trims the punctuation around a token.
func word(tok string) string {
	return strings.TrimFunc(tok, func(r rune) bool { return !isWordRune(r) && r != '%' && r != '{' && r != '}' })
}

var (
	// clauseEnd ends a sentence or a clause; sentenceEnd only a sentence.
	clauseEnd    = regexp.MustCompile(`[.!؟?…،؛;:\n]`)
	sentenceMark = regexp.MustCompile(`[.!؟?…\n]`)
	badPunct     = regexp.MustCompile(`[،,؛]\s*[.!؟?،,؛]|[.!؟?]\s*[،,؛]|(?m)^\s*[،,؛.!؟?:]`)
	endMark      = regexp.MustCompile(`[.!؟?…)»]$`)
)

// danglers cannot end a sentence or a clause: prepositions, conjunctions and
// the object marker.
var danglers = map[string]bool{"از": true, "به": true, "با": true, "در": true, "تا": true, "برای": true, "که": true,
	"و": true, "یا": true, "را": true, "روی": true, "بر": true, "اگر": true, "چون": true, "ولی": true, "اما": true,
	"بدون": true, "مثل": true, "جز": true, "درباره": true, "این": true, "یعنی": true}

// reduplications are words Persian doubles on purpose («کم کم»).
var reduplications = map[string]bool{"کم": true, "آرام": true, "تک": true, "جدا": true, "دسته": true, "گروه": true, "ذره": true}

// bound are suffixes and prefixes written apart by mistake («می خواهیم», «کفش ها»).
var bound = map[string]bool{"می": true, "نمی": true, "ها": true, "های": true, "هایی": true, "تر": true, "ترین": true}

// grammar lists the grammar problems of a masked text: unbalanced quotes and
// brackets, stray punctuation, dangling words, doubled words, bound morphemes
// written apart and a last sentence without an end mark.
func grammar(text string) []Fault {
	var ps []Fault
	ps = append(ps, unbalanced(text)...)
	for _, m := range badPunct.FindAllString(text, -1) {
		ps = append(ps, Fault{RulePunct, strings.TrimSpace(m)})
	}
	for _, clause := range clauseEnd.Split(text, -1) {
		if ws := strings.Fields(clause); len(ws) > 0 && danglers[word(ws[len(ws)-1])] {
			ps = append(ps, Fault{RuleDangling, word(ws[len(ws)-1])})
		}
	}
	for _, line := range strings.Split(text, "\n") {
		toks := strings.Fields(line)
		for i, tok := range toks {
			w := word(tok)
			if bound[w] && w == tok {
				ps = append(ps, Fault{RuleZWNJ, apart(toks, i)})
			}
			if i > 0 && w != "" && w == word(toks[i-1]) && word(toks[i-1]) == toks[i-1] && !reduplications[w] {
				ps = append(ps, Fault{RuleDoubled, w})
			}
		}
	}
	if !endsWell(text) {
		ps = append(ps, Fault{RuleEnd, ""})
	}
	return ps
}

// apart is a bound morpheme written apart with the word it belongs to: the
// next one for «می», the one before for a suffix.
func apart(toks []string, i int) string {
	if w := toks[i]; w == "می" || w == "نمی" {
		if i+1 < len(toks) {
			return w + " " + word(toks[i+1])
		}
		return w
	}
	if i > 0 {
		return word(toks[i-1]) + " " + toks[i]
	}
	return toks[i]
}

// unbalanced finds quotes and brackets that are not closed, or closed first.
func unbalanced(text string) []Fault {
	var ps []Fault
	for _, pair := range [][2]rune{{'«', '»'}, {'(', ')'}, {'[', ']'}} {
		depth := 0
		for _, r := range text {
			switch r {
			case pair[0]:
				depth++
			case pair[1]:
				depth--
			}
			if depth < 0 {
				break
			}
		}
		if depth != 0 {
			ps = append(ps, Fault{RuleBalance, string(pair[0]) + string(pair[1])})
		}
	}
	if strings.Count(text, `"`)%2 != 0 {
		ps = append(ps, Fault{RuleBalance, `"`})
	}
	return ps
}

// endsWell: the last line ends with an end mark, or is not a sentence: a
// signature or label of at most four words, or a line ending in a fact (a link,
// a code, a phone number).
func endsWell(text string) bool {
	lines := strings.Split(strings.TrimSpace(text), "\n")
	last := strings.TrimSpace(lines[len(lines)-1])
	if endMark.MatchString(last) {
		return true
	}
	if strings.HasSuffix(last, ":") || strings.HasSuffix(last, "،") {
		return false
	}
	ws := strings.Fields(last)
	return len(ws) <= 4 || strings.HasPrefix(ws[len(ws)-1], "§")
}

// zwnjLost: a word the text writes with a ZWNJ («می‌خواهیم») that the reply
// writes with a space or glued («می خواهیم», «میخواهیم»).
func zwnjLost(in, out string) []Fault {
	var ps []Fault
	seen := map[string]bool{}
	for _, tok := range strings.Fields(in) {
		w := word(tok)
		if !strings.Contains(w, zwnj) || seen[w] {
			continue
		}
		seen[w] = true
		for _, broken := range []string{strings.ReplaceAll(w, zwnj, " "), strings.ReplaceAll(w, zwnj, "")} {
			if containsWord(out, broken) && !containsWord(in, broken) {
				ps = append(ps, Fault{RuleZWNJ, broken})
			}
		}
	}
	return ps
}

// cutSentences: a sentence of the reply that is the start of a sentence of the
// text, or that follows one (most of its words) but lost its final verb for a
// word that is no verb, is cut.
func cutSentences(in, out string) []Fault {
	var ps []Fault
	ins := sentenceWords(in)
	for _, o := range sentenceWords(out) {
		if len(o) < 2 {
			continue
		}
		best, overlap := []string(nil), 0.0
		for _, s := range ins {
			if len(o) < len(s) && equalWords(o, s[:len(o)]) {
				ps = append(ps, Fault{RuleCut, s[len(o)]})
				best = nil
				break
			}
			// o follows s: most of o's words are s's, and it kept half of s.
			if r := shared(o, s); r > overlap && shared(s, o) >= 0.5 {
				best, overlap = s, r
			}
		}
		if w := droppedInside(o, ins); w != "" {
			ps = append(ps, Fault{RuleCut, w})
			continue
		}
		if best == nil || overlap < 0.6 || len(o) < 3 {
			continue
		}
		if lastIn, lastOut := best[len(best)-1], o[len(o)-1]; verbLike(lastIn) && lastOut != lastIn && !verbLike(lastOut) {
			ps = append(ps, Fault{RuleCut, lastIn})
		}
	}
	return ps
}

// droppedInside: when o is a sentence of the text with words left out (its
// words in order, at least half of them), and what is left out right after a
// preposition, conjunction or «را» is not a phrase without meaning (droppable)
// nor undone by a swap of the offline rules, that word lost its object (the
// earlier model's «۲۰ درصد تخفیف تا ۱۲»): the first word left out is returned.
func droppedInside(o []string, ins [][]string) string {
	if len(o) < 3 {
		return ""
	}
	for _, s := range ins {
		runs, ok := gaps(o, s)
		if !ok || len(o) >= len(s) || shared(s, o) < 0.5 || alignable(o, s) {
			continue
		}
		for _, r := range runs {
			if r.at > 0 && r.at+len(r.words) < len(s) && danglers[s[r.at-1]] && !droppable[strings.Join(r.words, " ")] {
				return r.words[0]
			}
		}
	}
	return ""
}

// run is a run of words left out of a sentence, at its index in the sentence.
type run struct {
	at    int
	words []string
}

// gaps aligns o inside s (leftmost) and returns the runs of s's words left out.
func gaps(o, s []string) ([]run, bool) {
	var runs []run
	cur := run{}
	i := 0
	for j, w := range s {
		if i < len(o) && o[i] == w {
			i++
			if len(cur.words) > 0 {
				runs, cur = append(runs, cur), run{}
			}
			continue
		}
		if len(cur.words) == 0 {
			cur.at = j
		}
		cur.words = append(cur.words, w)
	}
	if len(cur.words) > 0 {
		runs = append(runs, cur)
	}
	return runs, i == len(o)
}

// alignable reports whether s becomes o by leaving out droppable phrases and
// applying the phrase swaps of the offline model's rules.
func alignable(o, s []string) bool {
	memo := map[[2]int]bool{}
	var f func(i, j int) bool
	f = func(i, j int) bool {
		if j == len(s) {
			return i == len(o)
		}
		key := [2]int{i, j}
		if v, ok := memo[key]; ok {
			return v
		}
		ok := i < len(o) && o[i] == s[j] && f(i+1, j+1)
		for k := j + 1; k <= len(s) && !ok; k++ {
			phrase := strings.Join(s[j:k], " ")
			ok = droppable[phrase] && f(i, k)
			for _, to := range rewrites[phrase] {
				if n := len(to); !ok && i+n <= len(o) && equalWords(to, o[i:i+n]) {
					ok = f(i+n, k)
				}
			}
		}
		memo[key] = ok
		return ok
	}
	return f(0, 0)
}

// rewrites are the phrase swaps of the offline model's rules, by what they replace.
var rewrites = func() map[string][][]string {
	out := map[string][][]string{}
	for _, list := range [][]rule{shortRuleList, friendlyRuleList, formalRuleList} {
		for _, r := range list {
			if r.to != "" {
				out[r.from] = append(out[r.from], strings.Fields(r.to))
			}
		}
	}
	return out
}()

// droppable are the phrases a shorter text may leave out of a sentence: those
// shortRules delete, salutations and addresses, and «این» before a noun.
var droppable = func() map[string]bool {
	out := map[string]bool{"این": true, "با سلام و احترام": true, "با سلام": true, "سلام": true, "درود": true}
	for _, r := range shortRuleList {
		if r.to == "" {
			out[r.from] = true
		}
	}
	for _, who := range strings.Fields("مشتری مشتریان مشترک مشترکین دوست دوستان همراه والدین کاربر بیمار مسافر داوطلب") {
		for _, adj := range []string{"گرامی", "عزیز", "محترم"} {
			out[who+" "+adj] = true
		}
	}
	return out
}()

// sentenceWords splits text into sentences of words (punctuation trimmed).
func sentenceWords(text string) [][]string {
	var out [][]string
	for _, s := range sentenceMark.Split(text, -1) {
		var ws []string
		for _, tok := range strings.Fields(s) {
			if w := word(tok); w != "" {
				ws = append(ws, w)
			}
		}
		if len(ws) > 0 {
			out = append(out, ws)
		}
	}
	return out
}

func equalWords(a, b []string) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// shared is the share of a's words that are in b.
func shared(a, b []string) float64 {
	in := map[string]bool{}
	for _, w := range b {
		in[w] = true
	}
	n := 0
	for _, w := range a {
		if in[w] {
			n++
		}
	}
	return float64(n) / float64(len(a))
}

// verbs are frequent finite verbs; nounsLikeVerbs end like a verb but are not.
var (
	verbs = wordSet("است نیست هست هستیم هستید هستند بود بودند شد شدند شود شوند باشد باشید باشند دارد دارید داریم دارند " +
		"ندارد ندارید کرد کند کنید کنیم نمایید فرمایید گردید گیرد دهد دهید یافت رسید رسد برد دهند گیرند شماست ماست")
	nounsLikeVerbs = wordSet("خرید جدید عید کلید تمدید تولید سفید تایید تأیید امید شدید مفید بازدید تردید نوید خورشید " +
		"چند بند پسند فرزند قند بلند روند پیوند خداوند هرچند تقویم تیم مستقیم قدیم عظیم تنظیم تقدیم تسلیم نسیم کریم سیم")
)

func wordSet(s string) map[string]bool {
	out := map[string]bool{}
	for _, w := range strings.Fields(s) {
		out[w] = true
	}
	return out
}

// verbLike reports whether w looks like a finite Persian verb.
func verbLike(w string) bool {
	switch {
	case verbs[w]:
		return true
	case nounsLikeVerbs[w] || strings.HasSuffix(w, "مند"):
		return false
	case strings.HasPrefix(w, "می"+zwnj) || strings.HasPrefix(w, "نمی"+zwnj):
		return true
	}
	for _, suf := range []string{"ید", "یم", "ند", zwnj + "است", "هاست"} {
		if strings.HasSuffix(w, suf) && len([]rune(w)) > 3 {
			return true
		}
	}
	return false
}
