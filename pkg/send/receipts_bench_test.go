package send_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/chapar/chapar/internal/testing/testenv"
	"github.com/chapar/chapar/pkg/line"
	"github.com/chapar/chapar/pkg/send"
)

// BenchmarkApplyReceipts measures the receipt path of the end-to-end run on its
// own: 100,000 one-part recipients submitted, their ids in the Redis id store, and
// a delivered receipt for each applied in batches of 2,000 (the inbound consumer's
// batch) through ApplyReceipts, against a real database and Redis, for an
// account without webhooks and for one with an endpoint that takes every
// receipt (an event written per receipt). Beside the wall time it reports the
// CPU a receipt of this process (the worker's share) and of the PostgreSQL
// backends:
//
//	go test -run '^$' -bench BenchmarkApplyReceipts -benchtime 3x ./pkg/send
func BenchmarkApplyReceipts(b *testing.B) {
	b.Run("no-webhook", func(b *testing.B) { benchApplyReceipts(b, false) })
	b.Run("webhook", func(b *testing.B) { benchApplyReceipts(b, true) })
}

func benchApplyReceipts(b *testing.B, hooked bool) {
	const n, batch = 100_000, 2_000
	ctx := context.Background()
	d := testenv.Postgres(b)
	rdb := testenv.RedisDB(b)
	svc := send.New(d.Pool, nil, line.New(d.Pool), nil, 0, nil)
	ids := send.NewIDStore(rdb.Client, 0)
	svc.SetIDStore(ids)
	acct := benchAccount(b, d)
	if hooked {
		if _, err := d.Pool.Exec(ctx, `INSERT INTO webhook_endpoints (account_id, url, events, secret)
			VALUES ($1, 'https://example.com/hook', '{delivery.receipt}', 'x')`, acct.AccountID); err != nil {
			b.Fatal(err)
		}
	}
	dbName := testenv.Scalar[string](b, d, `SELECT current_database()`)
	var cpu, pg time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		rs := submittedRecipients(b, d, ids, acct.AccountID, i, n)
		cpu0, pg0 := testenv.ProcessCPU(), testenv.BackendCPU(dbName)
		b.StartTimer()
		delivered := 0
		for lo := 0; lo < n; lo += batch {
			a, err := svc.ApplyReceipts(ctx, rs[lo:min(lo+batch, n)])
			if err != nil {
				b.Fatal(err)
			}
			delivered += a.Delivered
		}
		b.StopTimer()
		cpu, pg = cpu+testenv.ProcessCPU()-cpu0, pg+testenv.BackendCPU(dbName)-pg0
		if delivered != n {
			b.Fatalf("delivered %d, want %d", delivered, n)
		}
		if hooked {
			if ev := testenv.Scalar[int64](b, d, `SELECT count(*) FROM webhook_events`); ev != int64((i+1)*n) {
				b.Fatalf("%d webhook events, want %d", ev, (i+1)*n)
			}
		}
	}
	per := func(t time.Duration) float64 { return float64(t.Nanoseconds()) / 1e3 / float64(b.N*n) }
	b.ReportMetric(per(b.Elapsed()), "µs/receipt")
	b.ReportMetric(per(cpu), "worker-µs/receipt")
	b.ReportMetric(per(pg), "pg-µs/receipt")
	b.Logf("load average %s", testenv.LoadAverage())
}

// submittedRecipients writes a sending send of n one-part recipients, each
// accepted by the carrier (status 0, its id on the row and in the id store), and
// returns a delivered receipt for each, in submit order.
func submittedRecipients(b *testing.B, d testenv.Database, ids *send.IDStore, acct int64, round, n int) []send.Receipt {
	ctx := context.Background()
	sendID := sendingSend(b, d, acct, n)
	prefix := fmt.Sprintf("r%d-", round)
	if _, err := d.Pool.Exec(ctx, `INSERT INTO recipients (send_id, batch, mobile, operator, parts, cost, status, part_states,
		msg_ids, submitted_at)
		SELECT $1, g / 1000, '98912' || lpad(g::text, 7, '0'), 'mci', 1, 230, 0, 'a', ARRAY[$3 || g], now()
		FROM generate_series(0, $2 - 1) AS g`, sendID, n, prefix); err != nil {
		b.Fatal(err)
	}
	rows, err := d.Pool.Query(ctx, `SELECT id FROM recipients WHERE send_id = $1 ORDER BY id`, sendID)
	if err != nil {
		b.Fatal(err)
	}
	rids, err := pgx.CollectRows(rows, pgx.RowTo[int64])
	if err != nil {
		b.Fatal(err)
	}
	at := time.Now()
	acc := make([]send.AcceptedID, n)
	rs := make([]send.Receipt, n)
	for g, rid := range rids {
		id := fmt.Sprintf("%s%d", prefix, g)
		acc[g] = send.AcceptedID{Route: "mci", ID: id, Recipient: rid, Part: 1, At: at}
		rs[g] = send.Receipt{Operator: "mci", MsgID: id, Stat: send.StatDelivered, State: "DELIVRD",
			Mobile: fmt.Sprintf("98912%07d", g), ReceivedAt: at.Add(time.Second)}
	}
	for lo := 0; lo < n; lo += 10_000 {
		if err := ids.Put(ctx, acc[lo:min(lo+10_000, n)]); err != nil {
			b.Fatal(err)
		}
	}
	if _, err := d.Pool.Exec(ctx, `ANALYZE recipients`); err != nil {
		b.Fatal(err)
	}
	return rs
}
