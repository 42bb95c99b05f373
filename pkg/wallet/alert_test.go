package wallet_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/hibiken/asynq"
	"github.com/jackc/pgx/v5"

	"github.com/chapar/chapar/internal/testing/testenv"
	"github.com/chapar/chapar/jobs"
	"github.com/chapar/chapar/pkg/wallet"
)

// The alert reads the ledger, not the path that moved the money: a debit made by any
// service (the worker's settle, here a bare Apply) fires it once; checking again, from
// another process or a retry, queues nothing more; a recharge by a path that never
// calls Check (an operator's credit) still re-arms it. The SMS goes to the owner's
// proven mobile through the verification (platform account) task.
func TestAlertFollowsTheLedger(t *testing.T) {
	ctx := context.Background()
	d := testenv.Postgres(t)
	r := testenv.RedisDB(t)
	opt := asynq.RedisClientOpt{Addr: r.Addr, DB: r.DB}
	queue, insp := asynq.NewClient(opt), asynq.NewInspector(opt)
	t.Cleanup(func() { queue.Close(); insp.Close() })
	var acct int64
	if err := d.Pool.QueryRow(ctx, `INSERT INTO accounts (name) VALUES ('alert') RETURNING id`).Scan(&acct); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Pool.Exec(ctx, `INSERT INTO users (account_id, username, password_hash, mobile, is_owner)
		VALUES ($1, 'alertowner', 'x', '989121119001', true)`, acct); err != nil {
		t.Fatal(err)
	}
	svc, alerts := wallet.New(d.Pool), wallet.NewAlerts(d.Pool, queue)
	if _, err := svc.Credit(ctx, wallet.Entry{AccountID: acct, Kind: wallet.AdminCredit, Amount: 300_000}); err != nil {
		t.Fatal(err)
	}
	if _, err := alerts.Set(ctx, acct, 0, true, 250_000); err != nil {
		t.Fatal(err)
	}
	debit := func(amount int64) {
		t.Helper()
		err := pgx.BeginFunc(ctx, d.Pool, func(tx pgx.Tx) error {
			_, _, err := wallet.Apply(ctx, tx, wallet.Entry{AccountID: acct, Kind: wallet.Charge, Amount: -amount})
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		for range 2 { // a second check (another worker, a retry) changes nothing
			if err := alerts.Check(ctx, acct); err != nil {
				t.Fatal(err)
			}
		}
	}
	sms := func() []jobs.Verification {
		t.Helper()
		tasks, _ := insp.ListPendingTasks(jobs.QueueCritical)
		var out []jobs.Verification
		for _, task := range tasks {
			var v jobs.Verification
			if json.Unmarshal(task.Payload, &v) == nil && v.Purpose == wallet.PurposeLowBalance {
				out = append(out, v)
			}
		}
		return out
	}
	debit(40_000) // 260,000: above
	if n := len(sms()); n != 0 {
		t.Fatalf("%d alerts above the threshold", n)
	}
	debit(20_000) // 240,000: crosses
	got := sms()
	if len(got) != 1 || got[0].Mobile != "989121119001" || got[0].Text != wallet.AlertText(240_000, 250_000) {
		t.Fatalf("alerts after the crossing: %+v", got)
	}
	debit(10_000) // still below
	if _, err := svc.Credit(ctx, wallet.Entry{AccountID: acct, Kind: wallet.AdminCredit, Amount: 100_000}); err != nil {
		t.Fatal(err) // 330,000, never checked
	}
	debit(100_000) // 230,000: crosses again
	if n := len(sms()); n != 2 {
		t.Fatalf("%d alerts after a recharge above the threshold", n)
	}
	if wallet.Rials(1234567) != "۱٬۲۳۴٬۵۶۷" || wallet.Rials(-5) != "-۵" {
		t.Fatalf("rials %q %q", wallet.Rials(1234567), wallet.Rials(-5))
	}
}
