// Package moderation decides whether a send must wait for staff review before it
// goes out. The rules are data: a list of sensitive words (moderation_words), and
// the "moderation" settings row — hold texts with links, and hold one of a new
// account's first sends above a size. A matching send is held (spec §4 «در حال
// بررسی») until staff approve or block it (pkg/review).
package moderation

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"
)

// Persian reasons shown to staff (and kept on the review item).
const (
	ReasonWord       = "واژه حساس: "
	ReasonLink       = "پیوند در متن پیام"
	ReasonNewAccount = "ارسال انبوه از حساب جدید"
)

// Rules are the moderation settings.
type Rules struct {
	// Words are the sensitive words (matched whole, case- and letter-form-insensitively).
	Words []string `json:"-"`
	// Links holds a text that carries a link.
	Links bool `json:"links"`
	// NewAccountSends and NewAccountSize hold one of an account's first
	// NewAccountSends sends with more than NewAccountSize recipients (0 = off).
	NewAccountSends int `json:"new_account_sends"`
	NewAccountSize  int `json:"new_account_size"`
}

// Send is what the rules look at.
type Send struct {
	Text       string
	Recipients int
	// PriorSends is how many sends the account made before this one.
	PriorSends int
}

var linkRE = regexp.MustCompile(`(?i)(https?://|www\.|\b[a-z0-9][a-z0-9-]*\.(ir|com|net|org|info|xyz|io|me|co|app|site|online|link|top|club|shop|biz)\b)`)

// hasLink reports whether a text carries a link (linkRE). Every link linkRE finds
// has a '.' or a ':' right after an ASCII letter, digit or hyphen (or the two
// non-ASCII runes case folding maps to k and s), so a text without one — most
// Persian texts — is answered by two byte scans, without the regular expression.
func hasLink(text string) bool {
	for _, sep := range [...]byte{'.', ':'} {
		for i := 0; i < len(text); i++ {
			j := strings.IndexByte(text[i:], sep)
			if j < 0 {
				break
			}
			if i += j; i > 0 && linkLead(text[:i]) {
				return linkRE.MatchString(text)
			}
		}
	}
	return false
}

// linkLead reports whether the last rune of s may end a link's label or scheme.
func linkLead(s string) bool {
	r, _ := utf8.DecodeLastRuneInString(s)
	switch {
	case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-':
		return true
	}
	return r == '\u212A' || r == '\u017F' // the Kelvin sign and the long s fold to k and s
}

// Check returns the reasons a send must be held (none: it goes out).
func (r Rules) Check(s Send) []string {
	var reasons []string
	text := Normalize(s.Text)
	padded := " " + text + " "
	for _, w := range r.Words {
		if w = Normalize(w); w != "" && strings.Contains(padded, " "+w+" ") {
			reasons = append(reasons, ReasonWord+w)
		}
	}
	if r.Links && hasLink(s.Text) {
		reasons = append(reasons, ReasonLink)
	}
	if r.NewAccountSends > 0 && s.PriorSends < r.NewAccountSends && s.Recipients > r.NewAccountSize {
		reasons = append(reasons, ReasonNewAccount)
	}
	return reasons
}

var normalizer = strings.NewReplacer("ي", "ی", "ى", "ی", "ك", "ک", "\u200c", " ", "ـ", "", "ة", "ه", "أ", "ا", "إ", "ا")

// Normalize lowers a text, unifies Arabic and Persian letter forms, turns
// punctuation and zero-width joiners into spaces and collapses spaces, so a word
// list matches however a text writes its words.
func Normalize(s string) string {
	s = normalizer.Replace(strings.ToLower(s))
	s = strings.Map(func(r rune) rune {
		if isWordRune(r) {
			return r
		}
		return ' '
	}, s)
	return strings.Join(strings.Fields(s), " ")
}

func isWordRune(r rune) bool {
	switch r {
	case '،', '؛', '؟', '٪', '٫', '٬', '۔': // Arabic-script punctuation separates words
		return false
	}
	return r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 0x0600 && r <= 0x06FF
}

// Querier reads the rules (a pool or a transaction).
type Querier interface {
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

// Load reads the rules.
func Load(ctx context.Context, q Querier) (Rules, error) {
	var r Rules
	err := q.QueryRow(ctx, `SELECT coalesce((SELECT value FROM settings WHERE key = 'moderation'), '{}'),
		coalesce((SELECT array_agg(word ORDER BY word) FROM moderation_words), '{}')`).Scan(&r, &r.Words)
	if err != nil && !errors.Is(err, pgx.ErrNoRows) {
		return r, fmt.Errorf("load moderation rules: %w", err)
	}
	return r, nil
}

// Hold loads the rules and returns why the account's send must be held (none: it
// goes out).
func Hold(ctx context.Context, q Querier, accountID int64, text string, recipients int) ([]string, error) {
	r, err := Load(ctx, q)
	if err != nil {
		return nil, err
	}
	return r.Hold(ctx, q, accountID, text, recipients)
}

// RowReason is the reason of a send whose per-row texts (peer-to-peer, keyword)
// carry a sensitive word: the first word found and how many rows carry one.
func RowReason(word string, rows int) string {
	return ReasonWord + word + inRows(rows)
}

// RowLinkReason is the reason of a send whose per-row texts carry a link: how many
// rows carry one.
func RowLinkReason(rows int) string {
	return ReasonLink + inRows(rows)
}

// inRows is the «(در N ردیف)» suffix of the per-row reasons.
func inRows(rows int) string { return " (در " + strconv.Itoa(rows) + " ردیف)" }

// Hold returns why the account's send must be held under these rules (none: it goes
// out).
func (r Rules) Hold(ctx context.Context, q Querier, accountID int64, text string, recipients int) ([]string, error) {
	s := Send{Text: text, Recipients: recipients}
	if r.NewAccountSends > 0 {
		if err := q.QueryRow(ctx, `SELECT count(*) FROM (SELECT 1 FROM sends WHERE account_id = $1 LIMIT $2) p`,
			accountID, r.NewAccountSends).Scan(&s.PriorSends); err != nil {
			return nil, fmt.Errorf("prior sends: %w", err)
		}
	}
	return r.Check(s), nil
}
