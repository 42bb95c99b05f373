package assistant

import (
	"context"
	"regexp"
	"strings"
)

// Offline is the built-in model: rule-based Persian rewriting that needs no
// network (used by `make run` and the tests when ASSISTANT_URL is empty). It
// reads the structured Task, not the words of the prompt.
type Offline struct{}

// Name is "offline".
func (Offline) Name() string { return "offline" }

// Complete performs the task within its part budget.
func (Offline) Complete(ctx context.Context, p Prompt) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", err
	}
	t := p.Task
	if t.Action == Chat {
		t = Interpret(t)
	}
	if t.Action == Chat {
		return helpText, nil
	}
	return perform(t), nil
}

// helpText answers a request the offline model does not understand.
const helpText = "می‌توانم متن پیامک شما را کوتاه‌تر، بلندتر، صمیمی‌تر یا رسمی‌تر کنم، یا برای محصول و پیشنهادتان " +
	"متن تبلیغ بنویسم؛ مثلا بنویسید: «یک تبلیغ برای تخفیف ۲۰ درصدی کفش تا پایان هفته بنویس»."

// perform runs an action; the result always fits t.Parts parts.
func perform(t Task) string {
	budget := Budget(t.Parts)
	switch t.Action {
	case Shorter:
		return shorter(t, budget)
	case Longer:
		return lengthen(t, budget)
	case Friendly:
		return withOpener(apply(t.Text, friendlyRules), "سلام دوست عزیز!", t, budget)
	case Formal:
		text := greeting.ReplaceAllString(strings.TrimSpace(t.Text), "با سلام و احترام، ")
		return withOpener(apply(text, formalRules), "با سلام و احترام،", t, budget)
	case Ad:
		return advert(t, budget)
	}
	return shorten(t.Text, t.Brand, budget, t.Cancel11)
}

// shorter drops the greeting, fillers, adjectives of praise and the closing
// sentences without meaning words, and saves a part when that costs no meaning.
func shorter(t Task, budget int) string {
	text := greeting.ReplaceAllString(strings.TrimSpace(t.Text), "")
	text = apply(apply(text, shortRules), trimRules)
	bw := brandWords(t.Brand)
	if ss := sentences(text); len(ss) > 1 && !sentenceMeaningful(ss[len(ss)-1], bw) {
		text = tidy(strings.Join(ss[:len(ss)-1], ""))
	}
	out := shorten(text, t.Brand, budget, t.Cancel11)
	if n := parts(out, t.Cancel11); n > 1 {
		if s := dropSentences(out, bw, n-1, t.Cancel11); fits(s, n-1, t.Cancel11) {
			out = s
		}
	}
	return out
}

// Budget clamps a part budget to 1–3 (0 means 1).
func Budget(n int) int { return min(max(n, 1), 3) }

// greetings start a text that already greets its reader.
var greetings = []string{"سلام", "با سلام", "درود", "مشتری گرامی", "مشتریان گرامی", "دوست عزیز", "دوستان عزیز", "مشترک گرامی"}

func greeted(text string) bool {
	for _, g := range greetings {
		if strings.HasPrefix(text, g) {
			return true
		}
	}
	return false
}

// withOpener puts opener before a text that greets nobody, when it fits, and
// keeps the text within the budget.
func withOpener(text, opener string, t Task, budget int) string {
	if !greeted(text) {
		if s := opener + " " + text; fits(s, budget, t.Cancel11) {
			text = s
		}
	}
	return shorten(text, t.Brand, budget, t.Cancel11)
}

// closings are added, in order, to lengthen a text while it fits.
var closings = []string{"این فرصت محدود است؛ همین امروز اقدام کنید.", "منتظر حضور گرم شما هستیم."}

// lengthen adds a greeting, closing sentences and the brand's signature while
// the text fits the budget.
func lengthen(t Task, budget int) string {
	text := shorten(t.Text, t.Brand, budget, t.Cancel11)
	try := func(s string) {
		if fits(s, budget, t.Cancel11) {
			text = s
		}
	}
	if !greeted(text) {
		try("مشتری گرامی، " + text)
	}
	for _, c := range closings {
		if !strings.Contains(text, c) {
			try(strings.TrimRight(text, " ") + "\n" + c)
		}
	}
	if t.Brand != "" && !strings.Contains(text, t.Brand) {
		try(text + "\n" + t.Brand)
	}
	return text
}

// advert writes an ad for the topic t.Text: the longest template that fits,
// the brand first; the opt-out footer is counted (it is appended at send time,
// so an «لغو۱۱» the user wrote into the topic is dropped).
func advert(t Task, budget int) string {
	topic := strings.TrimSpace(optOut.ReplaceAllString(t.Text, ""))
	topic = strings.TrimRight(topic, ".!؟ ")
	head := ""
	if t.Brand != "" {
		head = t.Brand + "\n"
	}
	variants := []string{
		head + topic + "!\nفرصتی ویژه برای شما؛ همین امروز اقدام کنید.\nمنتظر حضور گرم شما هستیم.",
		head + topic + "!\nهمین امروز اقدام کنید.",
		head + topic + "!",
	}
	for _, v := range variants {
		if fits(v, budget, t.Cancel11) {
			return v
		}
	}
	return shorten(variants[len(variants)-1], t.Brand, budget, t.Cancel11)
}

var optOut = regexp.MustCompile(`\n?لغو\s*(11|۱۱)`)

// intents map words of a free request to an action (first match wins).
var intents = []struct {
	words  []string
	action Action
}{
	{[]string{"تبلیغ", "آگهی", "معرفی کن"}, Ad},
	{[]string{"کوتاه", "خلاصه"}, Shorter},
	{[]string{"بلندتر", "طولانی", "مفصل", "بیشترش"}, Longer},
	{[]string{"صمیمی", "دوستانه", "خودمانی", "خودمونی"}, Friendly},
	{[]string{"رسمی", "اداری", "مودبانه"}, Formal},
	{[]string{"بنویس"}, Ad},
}

// commandWords are removed from an ad request to leave its topic.
var commandWords = compile([]rule{
	{"لطفا", ""}, {"لطفاً", ""}, {"یک", ""}, {"یه", ""}, {"متن", ""}, {"پیامک", ""}, {"پیام", ""},
	{"تبلیغاتی", ""}, {"تبلیغ", ""}, {"آگهی", ""}, {"برای", ""}, {"درباره", ""}, {"در مورد", ""},
	{"بنویسید", ""}, {"بنویس", ""}, {"معرفی کن", ""}, {"میخوام", ""}, {"می‌خواهم", ""}, {"را", ""},
})

// Interpret turns a free chat request into an action: the first intent word
// found decides it. A rewrite applies to the text after a colon in the request,
// or else to t.Text; an ad's topic is the request without its command words.
func Interpret(t Task) Task {
	req := strings.TrimSpace(t.Request)
	for _, in := range intents {
		for _, w := range in.words {
			if !strings.Contains(req, w) {
				continue
			}
			t.Action = in.action
			if in.action == Ad {
				t.Text = apply(req, commandWords)
			} else if _, after, ok := strings.Cut(req, ":"); ok && strings.TrimSpace(after) != "" {
				t.Text = strings.TrimSpace(after)
			}
			if t.Action != Ad && strings.TrimSpace(t.Text) == "" {
				t.Action = Chat
			}
			return t
		}
	}
	if len(strings.Fields(req)) >= 3 {
		t.Action, t.Text = Ad, req
	}
	return t
}
