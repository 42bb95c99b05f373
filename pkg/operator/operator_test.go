package operator_test

import (
	"context"
	"testing"
	"time"

	"github.com/chapar/chapar/internal/testing/testenv"
	"github.com/chapar/chapar/pkg/operator"
)

func TestTariffPrice(t *testing.T) {
	cases := []struct {
		tr    operator.Tariff
		parts int
		want  int64
	}{
		{operator.Tariff{PartPrice: 190, SendFee: 40}, 1, 230},
		{operator.Tariff{PartPrice: 190, SendFee: 40}, 3, 610},
		{operator.Tariff{PartPrice: 190, SurchargePct: 10, SendFee: 40}, 1, 249},
		{operator.Tariff{PartPrice: 190, SurchargePct: 10, SendFee: 40}, 2, 458},
		{operator.Tariff{PartPrice: 190, SurchargePct: 10, SendFee: 40}, 0, 0},
	}
	for _, c := range cases {
		if got := c.tr.Price(c.parts); got != c.want {
			t.Errorf("%+v × %d = %d, want %d", c.tr, c.parts, got, c.want)
		}
	}
}

func TestTableFromDatabase(t *testing.T) {
	d := testenv.Postgres(t)
	ctx := context.Background()
	tbl, err := operator.Load(ctx, d.Pool, 0)
	if err != nil {
		t.Fatal(err)
	}
	for mobile, want := range map[string]string{
		"989121234567": operator.MCI, "989901234567": operator.MCI, "989911234567": operator.MCI,
		"989351234567": operator.Irancell, "989011234567": operator.Irancell, "989331234567": operator.Irancell,
		"989201234567": operator.Rightel, "989221234567": operator.Rightel,
		"989341234567": operator.Other, "989981234567": operator.Other, "98": operator.Other,
		// Allocated ranges the first prefix table missed: routed and priced by the plan.
		"989231234567": operator.Rightel, "989321234567": operator.MCI, "989921234567": operator.MCI,
		"989931234567": operator.MCI, "989941234567": operator.MCI, "989961234567": operator.MCI,
		"989991012345": operator.Irancell, "989998812345": operator.Rightel, "989990123456": operator.MCI,
	} {
		if got := tbl.Classify(mobile); got != want {
			t.Errorf("%s: %s, want %s", mobile, got, want)
		}
	}
	if p := tbl.Price(operator.Irancell, 2); p != 458 {
		t.Fatalf("irancell 2 parts: %d", p)
	}
	// Routing and tariffs are data: a change takes effect on the next load.
	var acct int64
	if err := d.Pool.QueryRow(ctx, `INSERT INTO accounts (name) VALUES ('t') RETURNING id`).Scan(&acct); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Pool.Exec(ctx, `INSERT INTO operator_prefixes VALUES ('98934', 'irancell')`); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Pool.Exec(ctx, `INSERT INTO tariffs (account_id, operator, part_price, surcharge_pct, send_fee) VALUES ($1, 'mci', 100, 0, 0)`, acct); err != nil {
		t.Fatal(err)
	}
	tbl, err = operator.Load(ctx, d.Pool, acct)
	if err != nil {
		t.Fatal(err)
	}
	if got := tbl.Classify("989341234567"); got != operator.Irancell {
		t.Fatalf("new prefix: %s", got)
	}
	// A narrower block overrides its range (a ported block keeps its prefix).
	if _, err := d.Pool.Exec(ctx, `INSERT INTO operator_prefixes VALUES ('9891299', 'rightel')`); err != nil {
		t.Fatal(err)
	}
	tbl, err = operator.Load(ctx, d.Pool, acct)
	if err != nil {
		t.Fatal(err)
	}
	if a, b := tbl.Classify("989129912345"), tbl.Classify("989129812345"); a != operator.Rightel || b != operator.MCI {
		t.Fatalf("block override: %s, range: %s", a, b)
	}
	if p := tbl.Price(operator.MCI, 2); p != 200 {
		t.Fatalf("account tariff: %d", p)
	}
	if p := tbl.Price(operator.Rightel, 1); p != 249 {
		t.Fatalf("default tariff for the account: %d", p)
	}
}

// The cache serves an account's table for its TTL, then reads the database again;
// Forget drops it at once. Accounts are cached apart.
func TestCache(t *testing.T) {
	d := testenv.Postgres(t)
	ctx := context.Background()
	var acct int64
	if err := d.Pool.QueryRow(ctx, `INSERT INTO accounts (name) VALUES ('cache') RETURNING id`).Scan(&acct); err != nil {
		t.Fatal(err)
	}
	c := operator.NewCache(time.Hour)
	price := func(account int64) int64 {
		t.Helper()
		tbl, err := c.Load(ctx, d.Pool, account)
		if err != nil {
			t.Fatal(err)
		}
		return tbl.Price(operator.MCI, 1)
	}
	if p := price(acct); p != 230 {
		t.Fatalf("default MCI price %d", p)
	}
	if _, err := d.Pool.Exec(ctx, `INSERT INTO tariffs (account_id, operator, part_price, send_fee) VALUES ($1, 'mci', 100, 40)`, acct); err != nil {
		t.Fatal(err)
	}
	if p := price(acct); p != 230 {
		t.Fatalf("within the TTL the cached price changed to %d", p)
	}
	if p := price(0); p != 230 {
		t.Fatalf("default account price %d", p)
	}
	c.Forget()
	if p := price(acct); p != 140 {
		t.Fatalf("after Forget: price %d, want the account's 140", p)
	}
	short := operator.NewCache(time.Millisecond)
	if _, err := short.Load(ctx, d.Pool, acct); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Pool.Exec(ctx, `UPDATE tariffs SET part_price = 150 WHERE account_id = $1`, acct); err != nil {
		t.Fatal(err)
	}
	time.Sleep(5 * time.Millisecond)
	tbl, err := short.Load(ctx, d.Pool, acct)
	if err != nil || tbl.Price(operator.MCI, 1) != 190 {
		t.Fatalf("after the TTL: %v, %v", tbl, err)
	}
}
