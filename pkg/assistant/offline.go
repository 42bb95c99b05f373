package assistant

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/chapar/chapar/pkg/persian"
)

// Offline is the built-in model, used when no remote model is configured: it
// rewrites the text it is given by rules and never composes. «shorter» drops
// the salutation, announcing phrases, intensifiers, praise and whole filler
// sentences, and puts shorter equals for wordy phrases; «longer» adds a
// salutation, «با سپاس» and the brand's signature; the tones swap whole phrases
// of one register for the other's and the matching greeting. It never drops a
// word from the middle of a sentence. What it cannot do well — free writing, a
// colloquial text made formal, a code or a bank report — it declines
// (Declined), saying why in Persian.
type Offline struct{}

// Name is "offline".
func (Offline) Name() string { return "offline" }

// Offers reports the actions the offline model performs: the four rewrites.
func (Offline) Offers(a Action) bool {
	return a == Shorter || a == Longer || a == Friendly || a == Formal
}

// Declined is a model's honest refusal of a task it cannot do well; Reason
// says why, in Persian, for the panel.
type Declined struct{ Reason string }

// Error says that the model declined, and why.
func (d *Declined) Error() string { return "assistant declined: " + d.Reason }

// Reasons of the offline model's refusals.
const (
	MsgFreeOffline = "نوشتن آزاد، مثل نوشتن تبلیغ تازه یا پاسخ به درخواست دلخواه، به مدل زبانی نیاز دارد که مدیر سامانه " +
		"هنوز آن را تنظیم نکرده است؛ دستیار آفلاین فقط متن شما را کوتاه‌تر، بلندتر، صمیمی‌تر یا رسمی‌تر می‌کند."
	MsgNothingToDrop = "در این متن تعارف یا عبارت زائدی نبود که بی‌آنکه اطلاعاتی از دست برود حذف شود؛ " +
		"برای کوتاه‌تر کردن، بخشی از متن را خودتان کنار بگذارید."
	MsgFixedForm    = "این پیام قالب ثابتی دارد (کد یکبارمصرف یا گزارش تراکنش) و دستیار آفلاین آن را تغییر نمی‌دهد."
	MsgNothingToAdd = "این متن خطاب و امضا دارد؛ بلندتر کردن بیشتر یعنی افزودن مطلب تازه، که کار مدل زبانی است، نه دستیار آفلاین."
	MsgNoRoom       = "با حداکثر %s بخش جایی برای افزودن خطاب و امضا نمی‌ماند؛ حداکثر بخش را بیشتر کنید."
	MsgFriendlyDone = "این متن همین حالا لحن صمیمی دارد و دستیار آفلاین چیزی برای تغییر در آن نیافت."
	MsgFormalDone   = "این متن همین حالا لحن رسمی دارد و دستیار آفلاین چیزی برای تغییر در آن نیافت."
	MsgColloquial   = "این متن محاوره‌ای است (واژه «%s»)؛ رسمی کردن درست آن با قواعد آفلاین ممکن نیست و به مدل زبانی نیاز دارد."
	MsgFormalLeft   = "عبارت رسمی «%s» معادل صمیمی‌ای در قواعد آفلاین ندارد؛ صمیمی کردن درست این متن به مدل زبانی نیاز دارد."
	MsgToneBudget   = "با لحن تازه متن از حداکثر %s بخش بیشتر می‌شود؛ حداکثر بخش را بیشتر کنید یا اول «کوتاه‌تر» را بزنید."
)

func declined(reason string) error { return &Declined{Reason: reason} }

// Complete performs a rewrite of p.Task.Text; any other task is declined.
func (o Offline) Complete(ctx context.Context, p Prompt) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", err
	}
	t := p.Task
	if !o.Offers(t.Action) {
		return "", declined(MsgFreeOffline)
	}
	text := tidy(normalizeLetters(t.Text))
	if t.Action != Shorter && fixedForm(text) {
		return "", declined(MsgFixedForm)
	}
	switch t.Action {
	case Shorter:
		return offlineShorter(text, t)
	case Longer:
		return offlineLonger(text, t)
	case Friendly:
		return offlineFriendly(text, t)
	}
	return offlineFormal(text, t)
}

// offlineShorter drops the salutation, filler phrases and filler sentences.
// The result may still be over the budget: the service says so.
func offlineShorter(text string, t Task) (string, error) {
	out := text
	for range 2 {
		out = address.ReplaceAllString(salutation.ReplaceAllString(out, ""), "")
	}
	out = dropFillers(apply(out, shortRules), normalizeLetters(t.Brand))
	if out == "" || utf8.RuneCountInString(out) >= utf8.RuneCountInString(text) {
		return "", declined(MsgNothingToDrop)
	}
	return out, nil
}

// dropFillers removes the sentences whose every clause is a filler (and that
// hold no fact and not the brand).
func dropFillers(text, brand string) string {
	var b strings.Builder
	for _, s := range sentences(text) {
		if !isFiller(s, brand) {
			b.WriteString(s)
		} else if strings.HasSuffix(s, "\n") && !strings.HasSuffix(b.String(), "\n") {
			b.WriteString("\n")
		}
	}
	return tidy(b.String())
}

func isFiller(sentence, brand string) bool {
	body := strings.TrimSpace(strings.TrimRight(strings.TrimSpace(sentence), ".!؟"))
	if body == "" || len(factsOf(body)) > 0 || brand != "" && strings.Contains(body, brand) {
		return false
	}
	for _, clause := range strings.Split(body, "،") {
		if !fillers.MatchString(strings.TrimSpace(clause)) {
			return false
		}
	}
	return true
}

// offlineLonger adds, while they fit, a salutation and a closing «با سپاس»
// with the brand's signature; the opt-out line stays last.
func offlineLonger(text string, t Task) (string, error) {
	body, tail := splitTail(text)
	brand, budget := normalizeLetters(strings.TrimSpace(t.Brand)), Budget(t.Parts)
	out := body
	try := func(s string) bool {
		ok := fits(s+tail, budget, t.Cancel11)
		if ok {
			out = s
		}
		return ok
	}
	if !addressed.MatchString(out) {
		try(open(out, "مشتری گرامی،", brand))
	}
	if !thanked(out) {
		switch {
		case brand != "" && strings.HasSuffix(out, brand) && out != brand:
			try(strings.TrimSpace(strings.TrimSuffix(out, brand)) + "\nبا سپاس،\n" + brand)
		case brand != "" && !strings.Contains(out, brand):
			_ = try(out+"\nبا سپاس،\n"+brand) || try(out+"\n"+brand)
		default:
			try(out + "\nبا سپاس")
		}
	}
	if out == body {
		if fits(text, budget, t.Cancel11) && (addressed.MatchString(body) && thanked(body)) {
			return "", declined(MsgNothingToAdd)
		}
		return "", declined(fmt.Sprintf(MsgNoRoom, persian.Digits(fmt.Sprint(budget))))
	}
	return out + tail, nil
}

// optOutLine is the opt-out line a text may end with.
var optOutLine = regexp.MustCompile(`\n?لغو\s*(?:11|۱۱)$`)

// splitTail separates a final opt-out line (which must stay last) from the body.
func splitTail(text string) (string, string) {
	if loc := optOutLine.FindStringIndex(text); loc != nil && loc[0] > 0 {
		return text[:loc[0]], text[loc[0]:]
	}
	return text, ""
}

func thanked(text string) bool {
	for _, w := range []string{"با سپاس", "با تشکر", "سپاسگزاریم", "ممنونیم", "سپاسگزار", "متشکریم"} {
		if strings.Contains(text, w) {
			return true
		}
	}
	return false
}

// open puts opener before text, or after its first line when that line is
// only the brand (a signature heading the text).
func open(text, opener, brand string) string {
	if first, rest, ok := strings.Cut(text, "\n"); ok && brand != "" && strings.TrimSpace(first) == brand {
		return first + "\n" + opener + " " + rest
	}
	return opener + " " + text
}

// labelLine is a «label: value» line; webOTPLine the origin line of a WebOTP code.
var (
	labelLine  = regexp.MustCompile(`(?m)^[^:\n]{1,25}:\s*\S`)
	webOTPLine = factPatterns[0].re
)

// fixedForm reports a text whose form is fixed: a code for autofill (WebOTP,
// SMS Retriever) or a report of label lines (a bank transaction).
func fixedForm(text string) bool {
	return strings.Contains(text, "<#>") || webOTPLine.MatchString(text) || len(labelLine.FindAllString(text, -1)) >= 2
}

// offlineFriendly swaps formal phrases for friendly ones and greets the reader.
func offlineFriendly(text string, t Task) (string, error) {
	out := apply(text, friendlyRules)
	for _, w := range formalMarkers {
		if containsWord(out, w) {
			return "", declined(fmt.Sprintf(MsgFormalLeft, w))
		}
	}
	noRoom := false
	if !addressed.MatchString(out) {
		out, noRoom = greet(out, "سلام!", t)
	}
	return toneResult(text, out, t, MsgFriendlyDone, noRoom)
}

// casualGreeting is an informal greeting, maybe with a friendly address.
var casualGreeting = regexp.MustCompile(`^(?:سلام|درود)(?:\s+(دوست|دوستان)\s+عزیز)?\s*[!،,.]?\s*`)

// offlineFormal makes the greeting formal and swaps colloquial and neutral
// phrases for formal ones; a colloquial text it cannot convert is declined.
func offlineFormal(text string, t Task) (string, error) {
	out := variableAddress.ReplaceAllString(text, "$1 گرامی")
	if m := casualGreeting.FindStringSubmatch(out); m != nil {
		opener := "با سلام و احترام،"
		if m[1] != "" {
			opener += map[string]string{"دوست": " مشتری گرامی،", "دوستان": " مشتریان گرامی،"}[m[1]]
		}
		out = opener + " " + out[len(m[0]):]
	}
	out = apply(out, formalRules)
	for _, w := range colloquialMarkers {
		if containsWord(out, w) {
			return "", declined(fmt.Sprintf(MsgColloquial, w))
		}
	}
	noRoom := false
	if !strings.HasPrefix(out, "با سلام") {
		out, noRoom = greet(out, "با سلام و احترام،", t)
	}
	return toneResult(text, out, t, MsgFormalDone, noRoom)
}

// greet puts the greeting of a tone before text when it fits the budget, and
// reports when it does not.
func greet(text, greeting string, t Task) (string, bool) {
	if s := open(text, greeting, normalizeLetters(t.Brand)); fits(s, Budget(t.Parts), t.Cancel11) {
		return s, false
	}
	return text, true
}

// toneResult is a change of tone, declined when it changed nothing (for want
// of room when noRoom) or does not fit the budget.
func toneResult(text, out string, t Task, unchanged string, noRoom bool) (string, error) {
	out = tidy(out)
	budget := Budget(t.Parts)
	if out == text && !noRoom {
		return "", declined(unchanged)
	}
	if out == text || !fits(out, budget, t.Cancel11) {
		return "", declined(fmt.Sprintf(MsgToneBudget, persian.Digits(fmt.Sprint(budget))))
	}
	return out, nil
}
