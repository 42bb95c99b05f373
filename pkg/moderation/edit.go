package moderation

import (
	"context"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/audit"
)

// Limits and messages of editing the rules.
const (
	MaxWords    = 2000
	MsgWords    = "حداکثر ۲۰۰۰ واژه، هر کدام حداکثر ۱۰۰ کاراکتر"
	MsgNewSends = "تعداد ارسال‌های حساب جدید باید بین ۰ و ۱۰۰۰ باشد"
	MsgNewSize  = "اندازه ارسال حساب جدید نمی‌تواند منفی باشد"
)

// RulesView is the rules with their word list, as staff edit them.
type RulesView struct {
	Rules
	Words []string `json:"words"`
}

// Editor reads and saves the rules for the back office.
type Editor struct{ pool *pgxpool.Pool }

// NewEditor returns the back office's editor of the rules.
func NewEditor(pool *pgxpool.Pool) *Editor { return &Editor{pool: pool} }

// View reads the rules for the back office.
func (e *Editor) View(ctx context.Context) (RulesView, error) {
	r, err := Load(ctx, e.pool)
	if r.Words == nil {
		r.Words = []string{}
	}
	return RulesView{Rules: r, Words: r.Words}, err
}

// Save replaces the rules and the word list in one transaction, audited with the
// staff member. Words are trimmed and deduplicated in their normalised form.
func (e *Editor) Save(ctx context.Context, by acl.Identity, v RulesView, ip string) error {
	words, err := cleanWords(v.Words)
	if err != nil {
		return err
	}
	if v.NewAccountSends < 0 || v.NewAccountSends > 1000 {
		return apperr.Field("new_account_sends", MsgNewSends)
	}
	if v.NewAccountSize < 0 {
		return apperr.Field("new_account_size", MsgNewSize)
	}
	return pgx.BeginFunc(ctx, e.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `INSERT INTO settings (key, value) VALUES ('moderation', $1)
			ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`, v.Rules); err != nil {
			return fmt.Errorf("save moderation settings: %w", err)
		}
		if _, err := tx.Exec(ctx, `DELETE FROM moderation_words WHERE word <> ALL($1::text[])`, words); err != nil {
			return fmt.Errorf("save moderation words: %w", err)
		}
		if _, err := tx.Exec(ctx, `INSERT INTO moderation_words (word) SELECT unnest($1::text[]) ON CONFLICT DO NOTHING`, words); err != nil {
			return fmt.Errorf("save moderation words: %w", err)
		}
		return audit.Record(ctx, tx, audit.Entry{UserID: by.UserID, Action: "staff.moderation_saved", IP: ip,
			Details: map[string]any{"staff": by.Username, "words": len(words), "links": v.Links,
				"new_account_sends": v.NewAccountSends, "new_account_size": v.NewAccountSize}})
	})
}

func cleanWords(in []string) ([]string, error) {
	if len(in) > MaxWords {
		return nil, apperr.Field("words", MsgWords)
	}
	seen := map[string]bool{}
	out := []string{}
	for _, w := range in {
		w = strings.TrimSpace(w)
		if len([]rune(w)) > 100 {
			return nil, apperr.Field("words", MsgWords)
		}
		if n := Normalize(w); n != "" && !seen[n] {
			seen[n] = true
			out = append(out, w)
		}
	}
	return out, nil
}
