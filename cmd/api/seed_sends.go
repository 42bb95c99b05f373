package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"

	"github.com/hibiken/asynq"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/redis/go-redis/v9"

	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/config"
	"github.com/chapar/chapar/pkg/httpapi"
	"github.com/chapar/chapar/pkg/send"
)

// demoSends are the demo account's first sends: real sends, accepted by the send
// service like any other (held, priced, charged) and carried out by the worker,
// the gateway and the carrier simulator once `make run` starts them, so the
// dashboard charts and the reports show real activity. Each has its own
// idempotency key: seeding again adds nothing.
var demoSends = []struct {
	prefix string
	count  int
	text   string
}{
	{"0912", 24, "سلام، جشنواره پاییزه فروشگاه آغاز شد."},
	{"0935", 18, "یادآوری: نوبت شما فردا ساعت ۱۰ است."},
	{"0921", 8, "کد تخفیف ویژه مشتریان وفادار: PAIZ1405"},
	{"0919", 16, "مشتری گرامی، سفارش شما ارسال شد و تا دو روز کاری دیگر به دستتان می‌رسد. برای پیگیری مرسوله به بخش سفارش‌های من در وب‌سایت سر بزنید یا با پشتیبانی تماس بگیرید. از خرید شما سپاسگزاریم."},
}

// seedDemoSends accepts the demo sends for the demo owner when on (SEED_DEMO_SENDS=1,
// set by `make run`; the end-to-end stack seeds the demo account without them). They
// go from the advertising line: seeded outside its sending hours, they wait for the
// window to open (docs/sending-rules.md).
func seedDemoSends(ctx context.Context, cfg config.Config, pool *pgxpool.Pool, on bool, id acl.Identity) error {
	if !on {
		return nil
	}
	rdb := redis.NewClient(cfg.RedisOptions())
	defer rdb.Close()
	queue := asynq.NewClient(cfg.AsynqRedis())
	defer queue.Close()
	deps := httpapi.Wire(cfg, slog.New(slog.NewTextHandler(io.Discard, nil)), pool, rdb, queue, nil)
	for i, s := range demoSends {
		numbers := make([]string, s.count)
		for j := range numbers {
			numbers[j] = fmt.Sprintf("%s%07d", s.prefix, 4_100_000+i*1000+j)
		}
		key := fmt.Sprintf("seed:demo:send:%d", i+1)
		if _, _, err := deps.Sends.Create(ctx, id, send.Request{Type: "quick", Sender: demoLine, Text: s.text, Numbers: numbers,
			HoldUntilWindow: true},
			key, "127.0.0.1"); err != nil {
			return fmt.Errorf("seed demo send %d: %w", i+1, err)
		}
	}
	return nil
}
