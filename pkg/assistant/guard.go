package assistant

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/chapar/chapar/pkg/sms"
	"github.com/chapar/chapar/pkg/validate"
)

// systemPrompt tells a remote model the rules of the reply: the segment counter,
// the part budget, the brand, and what it must never write.
func systemPrompt(t Task) string {
	st := sms.Count(t.Text, t.Cancel11)
	var b strings.Builder
	b.WriteString("You are the writing assistant of Chapar, a Persian bulk-SMS platform. ")
	b.WriteString("Answer in Persian with the SMS text only: no explanation, no quotes, no markdown.\n")
	fmt.Fprintf(&b, "Budget: at most %d SMS part(s). Persian text is UCS-2: one part holds 70 characters; "+
		"a longer message uses parts of 67 characters.", Budget(t.Parts))
	if t.Cancel11 {
		b.WriteString(" The opt-out footer «\\nلغو۱۱» (6 characters) is appended at sending and counts; do not write it.")
	}
	fmt.Fprintf(&b, "\nThe editor's counter for the current text: %d characters, %d part(s).\n", st.Characters, st.Parts)
	b.WriteString("Never invent links or phone numbers: use only those the user wrote. Never put a variable inside a link.\n")
	if t.Brand != "" {
		fmt.Fprintf(&b, "The sender's brand is «%s»: an advertisement starts with it and a rewrite keeps it.\n", t.Brand)
	}
	if a := actionInstruction[t.Action]; a != "" {
		b.WriteString(a + "\n")
	}
	return b.String()
}

var actionInstruction = map[Action]string{
	Shorter:  "Rewrite the text shorter, keeping the brand, every number, date, price and link.",
	Longer:   "Rewrite the text longer and more persuasive, keeping the brand, every number, date, price and link.",
	Friendly: "Rewrite the text in a warm, friendly register, keeping the brand, every number, date, price and link.",
	Formal:   "Rewrite the text in a polite formal register, keeping the brand, every number, date, price and link.",
	Ad:       "Write an advertising SMS for the topic the user gives.",
}

// userPrompt is the user's turn for an action: the instruction and the text.
func userPrompt(t Task) string {
	if t.Action == Chat {
		if strings.TrimSpace(t.Text) == "" {
			return t.Request
		}
		return t.Request + "\n\nThe text in the editor:\n" + t.Text
	}
	return actionInstruction[t.Action] + "\n\n" + t.Text
}

var (
	// linkPattern finds a link: a scheme or www. or a bare domain with a dot ending.
	linkPattern = regexp.MustCompile(`(?i)(?:https?://|www\.)\S+|\b[a-z0-9-]+\.(?:ir|com|net|org|io|me|co|app|shop|site|link)\b\S*`)
	// phonePattern finds a phone number: seven or more digits, maybe split by
	// spaces or dashes, maybe after a plus sign.
	phonePattern = regexp.MustCompile(`\+?[0-9۰-۹٠-٩](?:[\s-]?[0-9۰-۹٠-٩]){6,}`)
	// linkVariable is a placeholder inside a link: {name} or %name%.
	linkVariable = regexp.MustCompile(`\{[^}]*\}|%[^%\s]+%`)
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

// Guard makes a model's reply safe to show: it removes links and phone numbers
// that are not in the user's own words (sources), links holding a variable and
// markdown fences; puts the brand first in an ad; and cuts the text to the part
// budget.
func Guard(reply string, t Task, sources string) string {
	reply = strings.Trim(strings.TrimSpace(reply), "`\"«»")
	reply = linkPattern.ReplaceAllStringFunc(reply, func(l string) string {
		if linkVariable.MatchString(l) || !strings.Contains(sources, strings.TrimRight(l, ".,،!؟")) {
			return ""
		}
		return l
	})
	known := digitsOnly(sources)
	reply = phonePattern.ReplaceAllStringFunc(reply, func(p string) string {
		if d := digitsOnly(p); len(d) >= 7 && !strings.Contains(known, d) {
			return ""
		}
		return p
	})
	reply = tidy(reply)
	if t.Action == Ad && t.Brand != "" && !strings.Contains(reply, t.Brand) {
		reply = t.Brand + "\n" + reply
	}
	if budget := Budget(t.Parts); !fits(reply, budget, t.Cancel11) {
		reply = shorten(reply, t.Brand, budget, t.Cancel11)
	}
	return reply
}
