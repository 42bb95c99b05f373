package payment_test

import (
	"context"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chapar/chapar/internal/testing/testenv"
	"github.com/chapar/chapar/pkg/payment"
	"github.com/chapar/chapar/pkg/payment/sandbox"
)

// testGateway is the sandbox bank under a name of the test's own.
type testGateway struct {
	payment.SandboxGateway
	name string
}

// Name implements payment.Gateway.
func (g testGateway) Name() string { return g.name }

// rig is the payment service over the sandbox bank, and one account that pays.
type rig struct {
	t    *testing.T
	ctx  context.Context
	db   testenv.Database
	svc  *payment.Service
	bank *sandbox.Bank
	acct int64
}

func newRig(t *testing.T) *rig {
	t.Helper()
	gw := testGateway{SandboxGateway: payment.NewSandbox(shared.DB.Pool, "payment test secret", 15*time.Minute), name: "sandbox " + t.Name()}
	r := &rig{t: t, ctx: context.Background(), db: shared.DB, svc: payment.New(shared.DB.Pool, gw), bank: gw.Bank}
	r.acct = r.account(t.Name())
	return r
}

// account creates an account and returns its id.
func (r *rig) account(name string) int64 {
	r.t.Helper()
	var id int64
	if err := r.db.Pool.QueryRow(r.ctx, `INSERT INTO accounts (name) VALUES ($1) RETURNING id`, name).Scan(&id); err != nil {
		r.t.Fatal(err)
	}
	return id
}

// start starts a payment of amount rials for the rig's account.
func (r *rig) start(amount int64) payment.Started {
	r.t.Helper()
	st, err := r.svc.Start(r.ctx, payment.Request{AccountID: r.acct, Amount: amount, Description: "شارژ"})
	if err != nil {
		r.t.Fatalf("start %d: %v", amount, err)
	}
	return st
}

// authority is the bank session of a started payment, read from its bank page URL.
func (r *rig) authority(st payment.Started) string {
	r.t.Helper()
	a, err := url.PathUnescape(strings.TrimPrefix(st.URL, sandbox.PathPrefix))
	if err != nil || a == st.URL {
		r.t.Fatalf("bank page %q: %v", st.URL, err)
	}
	return a
}

// decide makes the payer's choice on the bank page (sandbox.Paid, Failed, Canceled
// or Taken) and returns the signed callback query the bank sends the browser with.
func (r *rig) decide(st payment.Started, choice string) url.Values {
	r.t.Helper()
	loc, err := r.bank.Decide(r.ctx, r.authority(st), choice)
	if err != nil {
		r.t.Fatal(err)
	}
	return callbackQuery(r.t, loc)
}

// callbackQuery is the query of a callback URL on the payment callback path.
func callbackQuery(t *testing.T, loc string) url.Values {
	t.Helper()
	u, err := url.Parse(loc)
	if err != nil || u.Path != payment.CallbackPath {
		t.Fatalf("callback %q: %v", loc, err)
	}
	return u.Query()
}

// callback delivers a callback that must be accepted.
func (r *rig) callback(q url.Values) payment.Payment {
	r.t.Helper()
	p, err := r.svc.Callback(r.ctx, q)
	if err != nil {
		r.t.Fatalf("callback: %v", err)
	}
	return p
}

// settle runs the settle task once.
func (r *rig) settle() (settled, refunded int) {
	r.t.Helper()
	s, n, err := r.svc.Settle(r.ctx)
	if err != nil {
		r.t.Fatal(err)
	}
	return s, n
}

// ledgerRow is one ledger entry of the account.
type ledgerRow struct {
	kind, ref string
	amount    int64
}

// wallet is the account's balance and its ledger, oldest first.
func (r *rig) wallet() (int64, []ledgerRow) {
	r.t.Helper()
	var balance int64
	if err := r.db.Pool.QueryRow(r.ctx, `SELECT coalesce((SELECT balance FROM wallets WHERE account_id = $1), 0)`,
		r.acct).Scan(&balance); err != nil {
		r.t.Fatal(err)
	}
	rows, err := r.db.Pool.Query(r.ctx, `SELECT kind, ref, amount FROM ledger WHERE account_id = $1 ORDER BY id`, r.acct)
	if err != nil {
		r.t.Fatal(err)
	}
	defer rows.Close()
	var out []ledgerRow
	for rows.Next() {
		var l ledgerRow
		if err := rows.Scan(&l.kind, &l.ref, &l.amount); err != nil {
			r.t.Fatal(err)
		}
		out = append(out, l)
	}
	if err := rows.Err(); err != nil {
		r.t.Fatal(err)
	}
	return balance, out
}

// mustHold fails unless the balance is want and the ledger holds exactly rows entries.
func (r *rig) mustHold(want int64, rows int) {
	r.t.Helper()
	if b, l := r.wallet(); b != want || len(l) != rows {
		r.t.Fatalf("balance %d in %d ledger rows %+v, want %d in %d", b, len(l), l, want, rows)
	}
}

// get reads a payment of the rig's account through the service.
func (r *rig) get(id int64) payment.Payment {
	r.t.Helper()
	p, err := r.svc.Get(r.ctx, r.acct, id)
	if err != nil {
		r.t.Fatal(err)
	}
	return p
}

// age moves a payment, and its bank session unless bankToo is false, past the
// pending window (15 minutes).
func (r *rig) age(st payment.Started, bankToo bool) {
	r.t.Helper()
	q := []string{`UPDATE payments SET created_at = created_at - interval '16 minutes' WHERE id = $1`}
	if bankToo {
		q = append(q, `UPDATE sandbox_bank_payments SET created_at = created_at - interval '16 minutes'
			WHERE authority = (SELECT authority FROM payments WHERE id = $1)`)
	}
	for _, sql := range q {
		if _, err := r.db.Pool.Exec(r.ctx, sql, st.PaymentID); err != nil {
			r.t.Fatal(err)
		}
	}
}

// shared is the package's one migrated database (TestMain); each test has an
// account and a gateway name of its own, so the settle task of one test sees only
// its own payments.
var shared testenv.Shared

func TestMain(m *testing.M) { testenv.Main(m, false, &shared) }
