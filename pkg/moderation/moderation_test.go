package moderation_test

import (
	"context"
	"slices"
	"testing"

	"github.com/chapar/chapar/internal/testing/testenv"
	"github.com/chapar/chapar/pkg/moderation"
)

// The rules table: sensitive words (whatever their letter forms), links, and a new
// account's first sends above a size.
func TestRulesTable(t *testing.T) {
	r := moderation.Rules{Words: []string{"کازینو", "شرط بندی", "casino"}, Links: true, NewAccountSends: 2, NewAccountSize: 100}
	cases := []struct {
		name string
		send moderation.Send
		want []string
	}{
		{"clean", moderation.Send{Text: "سلام، جشنواره تابستانه آغاز شد", Recipients: 5000, PriorSends: 5}, nil},
		{"word", moderation.Send{Text: "بهترین کازینو آنلاین", PriorSends: 5}, []string{moderation.ReasonWord + "کازینو"}},
		{"arabic letter forms and zwnj", moderation.Send{Text: "شرط\u200cبندي فوتبال", PriorSends: 5}, []string{moderation.ReasonWord + "شرط بندی"}},
		{"latin case", moderation.Send{Text: "Best CASINO!", PriorSends: 5}, []string{moderation.ReasonWord + "casino"}},
		{"word inside another word", moderation.Send{Text: "casinos are not matched", PriorSends: 5}, nil},
		{"https link", moderation.Send{Text: "خرید: https://x.example/a", PriorSends: 5}, []string{moderation.ReasonLink}},
		{"bare domain", moderation.Send{Text: "به shop.ir سر بزنید", PriorSends: 5}, []string{moderation.ReasonLink}},
		{"www", moderation.Send{Text: "www.example.org", PriorSends: 5}, []string{moderation.ReasonLink}},
		{"new account large", moderation.Send{Text: "سلام", Recipients: 101, PriorSends: 1}, []string{moderation.ReasonNewAccount}},
		{"new account at the size", moderation.Send{Text: "سلام", Recipients: 100, PriorSends: 0}, nil},
		{"older account large", moderation.Send{Text: "سلام", Recipients: 10_000, PriorSends: 2}, nil},
	}
	for _, c := range cases {
		if got := r.Check(c.send); !slices.Equal(got, c.want) {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
	if got := (moderation.Rules{Words: []string{"کازینو"}}).Check(moderation.Send{Text: "https://a.com"}); got != nil {
		t.Errorf("links off still held: %q", got)
	}
}

// The rules are data: the seeded words and settings, edited in the database, are
// what Hold applies, counting the account's earlier sends.
func TestHoldReadsRulesFromTheDatabase(t *testing.T) {
	d := testenv.Postgres(t)
	ctx := context.Background()
	if got, err := moderation.Hold(ctx, d.Pool, 1, "کازینو بزرگ", 1); err != nil || len(got) != 1 {
		t.Fatalf("seeded word: %q %v", got, err)
	}
	if _, err := d.Pool.Exec(ctx, `INSERT INTO moderation_words (word) VALUES ('حراج');
		UPDATE settings SET value = '{"links": false, "new_account_sends": 1, "new_account_size": 10}' WHERE key = 'moderation'`); err != nil {
		t.Fatal(err)
	}
	got, err := moderation.Hold(ctx, d.Pool, 1, "حراج https://a.com", 11)
	if err != nil || !slices.Equal(got, []string{moderation.ReasonWord + "حراج", moderation.ReasonNewAccount}) {
		t.Fatalf("edited rules: %q %v", got, err)
	}
}
