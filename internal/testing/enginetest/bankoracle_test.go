package enginetest_test

import (
	"bytes"
	"context"
	"fmt"
	"testing"

	"github.com/chapar/chapar/internal/testing/enginetest"
	"github.com/chapar/chapar/pkg/bank"
	"github.com/chapar/chapar/pkg/send"
)

// probe is one number of the bank and where it is.
type probe struct {
	mobile string
	county int
	postal string
	gender int
}

// probeOf picks a number of the bank with a known gender outside the county
// named big, and the bank's largest county with its postal prefix.
func probeOf(t *testing.T, e *enginetest.Engine) (x probe, big int, bigPostal string) {
	t.Helper()
	ctx := context.Background()
	if err := e.DB.Pool.QueryRow(ctx, `SELECT county, left(min(postal), 4) FROM bank_numbers GROUP BY county ORDER BY count(*) DESC LIMIT 1`).
		Scan(&big, &bigPostal); err != nil {
		t.Fatal(err)
	}
	if err := e.DB.Pool.QueryRow(ctx, `SELECT id::text, county, postal, gender FROM bank_numbers
		WHERE county <> $1 AND gender IS NOT NULL ORDER BY id LIMIT 1`, big).Scan(&x.mobile, &x.county, &x.postal, &x.gender); err != nil {
		t.Fatal(err)
	}
	return x, big, bigPostal
}

// TestBankQuotesIgnoreAccountLists is the lookup of issue 38 (item 2): the
// account puts one number on its send blacklist and its cancel-11 list and prices
// «a big county plus one candidate county / postal prefix / gender». Every answer
// (the quote, a random draw's quote, the counts) is the same byte for byte as
// before the number was listed, for the right candidates and the wrong ones.
func TestBankQuotesIgnoreAccountLists(t *testing.T) {
	e := enginetest.Start(t, enginetest.Options{})
	if _, err := bank.Seed(context.Background(), e.DB.Pool, 5, 120_000); err != nil {
		t.Fatal(err)
	}
	token, acct := e.Account("prober", "09121110060", "30004060", "service", 100_000_000)
	// Regional sends come with the enterprise plan.
	if _, err := e.DB.Pool.Exec(context.Background(), `UPDATE accounts SET plan = 'enterprise' WHERE id = $1`, acct); err != nil {
		t.Fatal(err)
	}
	x, big, bigPostal := probeOf(t, e)
	other := 3 - x.gender
	audiences := []map[string]any{
		{"type": "city_province", "target": map[string]any{"counties": []int{big, x.county}}},
		{"type": "city_province", "target": map[string]any{"counties": []int{big, x.county}, "count": 5000}},
		{"type": "postal_code", "target": map[string]any{"postal_codes": []string{bigPostal, x.postal}}},
		{"type": "postal_code", "target": map[string]any{"postal_codes": []string{bigPostal, x.postal[:4] + "9"}}},
		{"type": "city_province", "target": map[string]any{"counties": []int{big, x.county}, "genders": []int{x.gender}}},
		{"type": "city_province", "target": map[string]any{"counties": []int{big, x.county}, "genders": []int{other}}},
	}
	answers := func() [][]byte {
		var out [][]byte
		for _, a := range audiences {
			body := map[string]any{"type": a["type"], "target": a["target"], "text": "تخفیف", "sender": "30004060"}
			r := e.Do("POST", "/v1/api/send/calculate-price", body, token)
			if tg := a["target"].(map[string]any); tg["count"] != nil && r.Status == 200 {
				// A draw is seeded anew on every call: its split by operator varies.
				var q send.Quote
				r.Decode(t, &q)
				r.Data = []byte(fmt.Sprintf("%d/%d/%d/%d", q.Requested, q.Recipients, q.Blacklisted, q.TotalParts))
			}
			out = append(out, []byte(fmt.Sprintf("%d %s", r.Status, r.Data)))
			var c bank.Counts
			e.Must(200, "POST", "/v1/api/send/banks/counts", a, token).Decode(t, &c)
			c.Cached = false
			out = append(out, []byte(itoa(c.Total)+"/"+itoa(c.Recipients)+"/"+itoa(c.Price)))
		}
		return out
	}
	before := answers()
	if !bytes.HasPrefix(before[0], []byte("200 ")) || !bytes.HasPrefix(before[4], []byte("200 ")) {
		t.Fatalf("the audiences must be priced: %s %s", before[0], before[4])
	}
	e.Must(201, "POST", "/v1/api/phonebooks/blacklist", map[string]any{"numbers": []string{local(x.mobile)}, "kind": "send"}, token)
	e.Must(201, "POST", "/v1/api/phonebooks/blacklist", map[string]any{"numbers": []string{local(x.mobile)}, "kind": "cancel11"}, token)
	after := answers()
	for i := range before {
		if !bytes.Equal(before[i], after[i]) {
			t.Fatalf("answer %d depends on the listed number:\nbefore %s\nafter  %s", i, before[i], after[i])
		}
	}
}
