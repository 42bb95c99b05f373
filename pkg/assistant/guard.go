package assistant

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/chapar/chapar/pkg/sms"
	"github.com/chapar/chapar/pkg/validate"
)

// systemPrompt tells a remote model the rules its reply is checked against
// (Check): keep every fact, add none, the part budget, correct Persian, the
// register, the brand. testdata/remote/*.json hold the exact requests.
func systemPrompt(t Task) string {
	st := sms.Count(t.Text, t.Cancel11)
	var b strings.Builder
	b.WriteString("You are the writing assistant of Chapar, a Persian bulk-SMS platform. You write one SMS text.\n")
	b.WriteString("Reply with the SMS text only, in Persian: no explanation, no title, no quotes, no markdown.\n")
	b.WriteString("Rules (a reply that breaks one is thrown away):\n")
	b.WriteString("1. Keep every fact of the user's text exactly as written: the brand, every number, percentage, price, " +
		"date, time, phone number, code, link, e-mail address and placeholder ({name}, %name%, {link:7}).\n")
	b.WriteString("2. Add no fact: no number, price, discount, date, time, link, phone number, placeholder or promise " +
		"that the user did not write.\n")
	fmt.Fprintf(&b, "3. Length: at most %d SMS part(s). Persian text is UCS-2: one part holds 70 characters; "+
		"a longer message uses parts of 67 characters.", Budget(t.Parts))
	if t.Cancel11 {
		b.WriteString(" The opt-out footer «\\nلغو۱۱» (6 characters) is appended at sending and counts; do not write it.")
	}
	fmt.Fprintf(&b, " The editor's counter for the current text: %d characters, %d part(s).", st.Characters, st.Parts)
	if t.LinkLength > 0 && linkSlot.MatchString(t.Text) {
		fmt.Fprintf(&b, " Each {link:N} placeholder is sent as a link of %d characters.", t.LinkLength)
	}
	b.WriteString("\n")
	b.WriteString("4. Write correct standard Persian: the Persian letters ی and ک, never ي or ك; a zero-width " +
		"non-joiner in «می‌خواهیم», «کفش‌ها», «بزرگ‌ترین»; no word twice in a row; every sentence complete with its " +
		"verb and ended by «.», «!» or «؟»; no sentence or clause ending in «از», «به», «با», «در», «تا», «برای», «که» or «را».\n")
	b.WriteString("5. Keep links and an opt-out line where they are; never put a placeholder inside a link.\n")
	if t.Brand != "" {
		fmt.Fprintf(&b, "The sender's brand is «%s»: keep it; an advertisement starts with it.\n", t.Brand)
	}
	task := actionInstruction[t.Action]
	if t.Action == Chat && adRequest(t.Request) {
		task = actionInstruction[Ad]
	}
	fmt.Fprintf(&b, "Task: %s\n", task)
	return b.String()
}

var actionInstruction = map[Action]string{
	Chat:    "Do what the user asks about the SMS text.",
	Shorter: "Rewrite the text shorter: drop greetings, fillers and repetition, never a fact.",
	Longer:  "Rewrite the text longer and warmer (a greeting, polite phrasing, a closing line), inventing no fact.",
	Friendly: "Rewrite the text in a warm, friendly Persian register (such as «سلام دوست عزیز»، «منتظرتان هستیم»، " +
		"«سر بزنید»), keeping its meaning; no formal phrases such as «نمایید»، «می‌باشد»، «جهت».",
	Formal: "Rewrite the text in a polite, formal Persian register (such as «با سلام و احترام»، «مشتری گرامی»، " +
		"«مراجعه نمایید»), keeping its meaning; no colloquial words such as «میتونی»، «رو»، «الان».",
	Ad: "Write an advertising SMS for the topic the user gives, with only the facts the user gives.",
}

// userPrompt is the user's turn: the request and the editor's text (a free
// request), or the instruction and the text (a quick action), with the
// placeholders of tracked links as the user wrote them.
func userPrompt(t Task) string {
	text := unpadLinks(t.Text)
	if t.Action == Chat {
		if strings.TrimSpace(text) == "" {
			return unpadLinks(t.Request)
		}
		return unpadLinks(t.Request) + "\n\nThe text in the editor:\n" + text
	}
	return actionInstruction[t.Action] + "\n\nThe text:\n" + text
}

var (
	// linkPattern finds a link: a scheme or www. or a bare domain with a dot ending.
	linkPattern = regexp.MustCompile(`(?i)(?:https?://|www\.)[^\s«»()]+|\b[a-z0-9-]+(?:\.[a-z0-9-]+)*\.(?:ir|com|net|org|io|me|co|app|shop|site|link)\b[^\s«»()،]*`)
	// linkVariable is a placeholder inside a link: {name} or %name%.
	linkVariable = regexp.MustCompile(`\{[^}]*\}|%[^%\s]+%`)
	// fence is a markdown code fence a model may wrap its reply in.
	fence = regexp.MustCompile("(?m)^```[a-z]*\\s*$")
)

// digitsOnly keeps the Latin digits of s (Persian and Arabic ones converted).
func digitsOnly(s string) string {
	var b strings.Builder
	for _, r := range validate.ToLatinDigits(s) {
		if r >= '0' && r <= '9' {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// clean takes off what wraps a model's reply (code fences, one pair of quotes
// around all of it), writes Arabic ي and ك as Persian letters and tidies the
// spacing. It changes no word: Check judges the words.
func clean(reply string) string {
	reply = strings.TrimSpace(fence.ReplaceAllString(reply, ""))
	for _, q := range [][2]string{{"«", "»"}, {`"`, `"`}} {
		if strings.HasPrefix(reply, q[0]) && strings.HasSuffix(reply, q[1]) && strings.Count(reply, q[0]) == 1 {
			reply = strings.TrimSuffix(strings.TrimPrefix(reply, q[0]), q[1])
		}
	}
	return tidy(normalizeLetters(reply))
}

// adWords mark a free request for an advertisement.
var adWords = []string{"تبلیغ", "آگهی", "معرفی کن"}

// adRequest reports whether a free request asks for an advertisement.
func adRequest(req string) bool {
	for _, w := range adWords {
		if strings.Contains(req, w) {
			return true
		}
	}
	return false
}
