package send_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/hibiken/asynq"
	"github.com/jackc/pgx/v5"

	"github.com/chapar/chapar/internal/testing/testenv"
	"github.com/chapar/chapar/jobs"
	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/line"
	"github.com/chapar/chapar/pkg/send"
	"github.com/chapar/chapar/pkg/wallet"
)

// BenchmarkExpand measures the expansion of a quick send of 100,000 numbers (the
// end-to-end run's send): the worker's walk and the COPY of its recipients, in one
// transaction against a real database. Beside the wall time it reports the CPU a
// recipient of this process (the worker's share) and of the PostgreSQL backends:
//
//	go test -run '^$' -bench BenchmarkExpand -benchtime 5x ./pkg/send
func BenchmarkExpand(b *testing.B) {
	const n = 100_000
	ctx := context.Background()
	d := testenv.Postgres(b)
	r := testenv.RedisDB(b)
	queue := asynq.NewClient(asynq.RedisClientOpt{Addr: r.Addr, DB: r.DB})
	b.Cleanup(func() { _ = queue.Close() })
	svc := send.New(d.Pool, queue, line.New(d.Pool), nil, 0, nil)
	id := benchAccount(b, d)
	numbers := make([]string, n)
	prefixes := []string{"0912", "0935", "0921"} // MCI, Irancell, Rightel
	for i := range numbers {
		numbers[i] = fmt.Sprintf("%s%07d", prefixes[i%3], (i*7919)%10_000_000)
	}
	var dbName string
	if err := d.Pool.QueryRow(ctx, `SELECT current_database()`).Scan(&dbName); err != nil {
		b.Fatal(err)
	}
	var cpu, pg time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		a, _, err := svc.Create(ctx, id, send.Request{Type: send.TypeQuick, Text: "چاپار: آزمون کارایی گسترش", Numbers: numbers},
			fmt.Sprintf("bench-expand-%d", i), "")
		if err != nil {
			b.Fatal(err)
		}
		task, err := jobs.NewSendExpand(a.ID, jobs.QueueDefault, time.Time{})
		if err != nil {
			b.Fatal(err)
		}
		cpu0, pg0 := testenv.ProcessCPU(), testenv.BackendCPU(dbName)
		b.StartTimer()
		if err := svc.HandleExpand(ctx, task); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		cpu, pg = cpu+testenv.ProcessCPU()-cpu0, pg+testenv.BackendCPU(dbName)-pg0
		if got := testenv.Scalar[int64](b, d, `SELECT count(*) FROM recipients WHERE send_id = $1`, a.ID); got != n {
			b.Fatalf("expanded %d recipients, want %d", got, n)
		}
	}
	per := func(t time.Duration) float64 { return float64(t.Nanoseconds()) / 1e3 / float64(b.N*n) }
	b.ReportMetric(per(b.Elapsed()), "µs/recipient") // the timed expansions alone
	b.ReportMetric(per(cpu), "worker-µs/recipient")
	b.ReportMetric(per(pg), "pg-µs/recipient")
	b.Logf("load average %s", testenv.LoadAverage())
}

// benchAccount is an account with a default service line and credit for many sends.
func benchAccount(b *testing.B, d testenv.Database) acl.Identity {
	ctx := context.Background()
	var id int64
	if err := d.Pool.QueryRow(ctx, `INSERT INTO accounts (name) VALUES ('bench') RETURNING id`).Scan(&id); err != nil {
		b.Fatal(err)
	}
	if _, err := d.Pool.Exec(ctx, `INSERT INTO lines (account_id, number, kind, is_default) VALUES ($1, '30001', 'service', true)`, id); err != nil {
		b.Fatal(err)
	}
	if err := pgx.BeginFunc(ctx, d.Pool, func(tx pgx.Tx) error {
		_, _, err := wallet.Apply(ctx, tx, wallet.Entry{AccountID: id, Kind: wallet.AdminCredit, Amount: 1_000_000_000_000})
		return err
	}); err != nil {
		b.Fatal(err)
	}
	return acl.Identity{AccountID: id, IsOwner: true}
}
