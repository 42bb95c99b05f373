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
	"strconv"
	"strings"

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

// Check returns the reasons a send must be held (none: it goes out).
func (r Rules) Check(s Send) []string {
	var reasons []string
	if len(r.Words) > 0 {
		texts := normalizedForms(s.Text)
		for _, w := range r.Words {
			if w = Normalize(w); w != "" && containsWord(texts, w) {
				reasons = append(reasons, ReasonWord+w)
			}
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

// normalizedForms are the padded normalised readings of a text: its non-joiners
// read as spaces and, when it has any, as nothing.
func normalizedForms(text string) []string {
	forms := []string{" " + Normalize(text) + " "}
	if strings.ContainsRune(text, zwnj) {
		forms = append(forms, " "+normalize(text, true)+" ")
	}
	return forms
}

// containsWord reports whether one of the readings carries a normalised word or
// phrase, whole.
func containsWord(forms []string, w string) bool {
	for _, f := range forms {
		if strings.Contains(f, " "+w+" ") {
			return true
		}
	}
	return false
}

// Normalize lowers a text, unifies Arabic and Persian letter forms, digits and
// look-alike letters (canon), drops invisible characters, turns punctuation and
// non-joiners into spaces and collapses spaces, so a word list matches however a
// text writes its words.
func Normalize(s string) string { return normalize(s, false) }

// normalize is Normalize, with non-joiners dropped instead when dropZWNJ.
func normalize(s string, dropZWNJ bool) string {
	s = strings.Map(func(r rune) rune {
		if r == zwnj && dropZWNJ {
			return -1
		}
		f, keep := fold(r)
		if !keep {
			return -1
		}
		return f
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
