package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"

	"github.com/hibiken/asynq"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/chapar/chapar/internal/platform/db"
	"github.com/chapar/chapar/jobs"
	"github.com/chapar/chapar/pkg/account"
	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/config"
	"github.com/chapar/chapar/pkg/invoice"
	"github.com/chapar/chapar/pkg/line"
	"github.com/chapar/chapar/pkg/send"
	"github.com/chapar/chapar/pkg/staff"
	"github.com/chapar/chapar/pkg/wallet"
)

func migrate(ctx context.Context, cfg config.Config, args []string) error {
	// The migration lock is a session lock: migrations go to the primary itself.
	pool, err := cfg.DB().OpenDirect(ctx)
	if err != nil {
		return err
	}
	defer pool.Close()
	dir := "up"
	if len(args) > 0 {
		dir = args[0]
	}
	switch dir {
	case "up":
		n, err := db.MigrateUp(ctx, pool)
		if err != nil {
			return err
		}
		v, _ := db.Version(ctx, pool)
		fmt.Printf("migrations applied: %d, schema version %d\n", n, v)
	case "down":
		steps := 1
		if len(args) > 1 {
			if args[1] == "all" {
				steps = 0
			} else if steps, err = strconv.Atoi(args[1]); err != nil {
				return fmt.Errorf("migrate down: steps: %w", err)
			}
		}
		n, err := db.MigrateDown(ctx, pool, steps)
		if err != nil {
			return err
		}
		fmt.Printf("migrations reverted: %d\n", n)
	case "version":
		v, err := db.Version(ctx, pool)
		if err != nil {
			return err
		}
		fmt.Printf("schema version %d\n", v)
	default:
		return fmt.Errorf("migrate %q: use up, down [n|all] or version", dir)
	}
	return nil
}

// Demo account (api-contract.md "Demo data").
const (
	demoUser        = "demo"
	demoPassword    = "Demo@12345"
	demoMobile      = "09120000000"
	demoLine        = "300012345"
	demoServiceLine = "500012345"
	demoCredit      = 50_000_000
)

// seedDemo creates the demo account once; running it again changes nothing.
func seedDemo(ctx context.Context, cfg config.Config) error {
	pool, err := cfg.DB().Open(ctx)
	if err != nil {
		return err
	}
	defer pool.Close()
	accounts := account.New(pool)
	u, err := accounts.ByUsername(ctx, demoUser)
	if errors.Is(err, apperr.ErrNotFound) {
		u, err = accounts.Register(ctx, account.RegisterInput{Name: "حساب نمایشی", Username: demoUser, Mobile: demoMobile,
			Password: demoPassword, PasswordConfirmation: demoPassword, AcceptRules: true, TwoStepOff: true, SeedPassword: true, MobileVerified: true}, "127.0.0.1")
	}
	if err != nil {
		return fmt.Errorf("seed demo user: %w", err)
	}
	lines := line.New(pool)
	if _, err := lines.Add(ctx, u.AccountID, demoLine, line.KindAdvertising, true); err != nil {
		return fmt.Errorf("seed demo line: %w", err)
	}
	if _, err := lines.Add(ctx, u.AccountID, demoServiceLine, line.KindService, false); err != nil {
		return fmt.Errorf("seed demo line: %w", err)
	}
	// The seed credit is given once (its ledger reference makes a re-run a no-op).
	_, err = wallet.New(pool).Credit(ctx, wallet.Entry{AccountID: u.AccountID, Kind: wallet.Gift, Amount: demoCredit,
		Ref: "seed:demo", Description: "اعتبار هدیه حساب نمایشی"})
	if err != nil {
		return fmt.Errorf("seed demo credit: %w", err)
	}
	if err := seedLinks(ctx, pool, u.AccountID); err != nil {
		return err
	}
	if err := seedDemoSends(ctx, cfg, pool, os.Getenv("SEED_DEMO_SENDS") == "1", acl.Identity{UserID: u.ID, AccountID: u.AccountID, Username: u.Username,
		IsOwner: true, Permissions: acl.All}); err != nil {
		return err
	}
	bal, _ := wallet.New(pool).Balance(ctx, u.AccountID)
	fmt.Printf("demo account ready: user %s, lines %s and %s, credit %d rials\n", u.Username, demoLine, demoServiceLine, bal)
	if err := seedBank(ctx, pool, cfg.BankSize); err != nil {
		return err
	}
	if err := seedStaff(ctx, pool); err != nil {
		return err
	}
	return seedSeller(ctx, pool)
}

// demoSeller is the invoice seller of the demo (staff change it at
// /admin/invoice-seller; a real deployment sets its own before the first invoice).
var demoSeller = invoice.Seller{Name: "چاپار (فروشنده نمایشی)", NationalID: "10101010101", EconomicCode: "411111111111",
	RegistrationNo: "123456", Address: "تهران، خیابان نمونه، پلاک ۱", PostalCode: "1111111111", Phone: "02100000000"}

// seedSeller sets the demo's invoice seller unless staff already set one.
func seedSeller(ctx context.Context, pool *pgxpool.Pool) error {
	if err := invoice.SeedSeller(ctx, pool, demoSeller); err != nil {
		return err
	}
	fmt.Println("invoice seller ready: the demo's details (back office → «فروشنده فاکتور»)")
	return nil
}

// Demo staff user of the back office (/admin), seeded next to the demo account.
const (
	demoStaffUser     = "admin"
	demoStaffPassword = "Admin@12345"
	demoStaffMobile   = "09120000099"
)

// seedStaff creates the demo staff user once.
func seedStaff(ctx context.Context, pool *pgxpool.Pool) error {
	_, err := staff.AddUser(ctx, pool, staff.NewUser{Username: demoStaffUser, Password: demoStaffPassword,
		Name: "پشتیبان چاپار", Mobile: demoStaffMobile})
	if fe, ok := apperr.As(err); ok && fe.Fields["username"] != nil {
		err = nil // already there
	}
	if err == nil {
		err = staff.GrantOperations(ctx, pool, demoStaffUser)
	}
	if err != nil {
		return fmt.Errorf("seed staff user: %w", err)
	}
	fmt.Printf("staff user ready: %s (back office at /admin, codes to %s)\n", demoStaffUser, demoStaffMobile)
	return nil
}

// addStaff runs `admin staff add <username> [password] [mobile]`; the password and
// mobile may also come from STAFF_PASSWORD and STAFF_MOBILE.
func addStaff(ctx context.Context, cfg config.Config, args []string) error {
	in := staff.NewUser{Username: args[0], Password: os.Getenv("STAFF_PASSWORD"), Mobile: os.Getenv("STAFF_MOBILE")}
	if len(args) > 1 {
		in.Password = args[1]
	}
	if len(args) > 2 {
		in.Mobile = args[2]
	}
	pool, err := cfg.DB().Open(ctx)
	if err != nil {
		return err
	}
	defer pool.Close()
	id, err := staff.AddUser(ctx, pool, in)
	if err != nil {
		return fmt.Errorf("admin staff add: %w", err)
	}
	fmt.Printf("staff user %s created (id %d); log in at /admin/login with the code sent to %s\n", in.Username, id, in.Mobile)
	return nil
}

// admin runs operator commands: `admin credit <username> <rials>`,
// `admin staff add <username> [password] [mobile]`, `admin requeue <send id>` and
// `admin claim-mode [ranges|rows]`, `admin id-store [redis|table]` and
// `admin inbound-format [packed|fields]`.
func admin(ctx context.Context, cfg config.Config, args []string) error {
	if len(args) >= 3 && args[0] == "staff" && args[1] == "add" {
		return addStaff(ctx, cfg, args[2:])
	}
	if len(args) == 2 && args[0] == "requeue" {
		return requeue(ctx, cfg, args[1])
	}
	if len(args) >= 1 && len(args) <= 2 && args[0] == "claim-mode" {
		return engineMode(ctx, cfg, "claim mode", send.ClaimMode, send.SetClaimMode, args[1:])
	}
	if len(args) >= 1 && len(args) <= 2 && args[0] == "id-store" {
		return engineMode(ctx, cfg, "id store", send.IDStoreMode, send.SetIDStoreMode, args[1:])
	}
	if len(args) >= 1 && len(args) <= 2 && args[0] == "inbound-format" {
		return engineMode(ctx, cfg, "inbound format", send.InboundFormat, send.SetInboundFormat, args[1:])
	}
	if len(args) != 3 || args[0] != "credit" {
		return fmt.Errorf("usage: admin credit <username> <rials> | admin staff add <username> [password] [mobile] | " +
			"admin requeue <send id> | admin claim-mode [ranges|rows] | admin id-store [redis|table] | " +
			"admin inbound-format [packed|fields]")
	}
	amount, err := strconv.ParseInt(args[2], 10, 64)
	if err != nil || amount <= 0 {
		return fmt.Errorf("admin credit: rials must be a positive integer, got %q", args[2])
	}
	pool, err := cfg.DB().Open(ctx)
	if err != nil {
		return err
	}
	defer pool.Close()
	u, err := account.New(pool).ByUsername(ctx, args[1])
	if err != nil {
		return fmt.Errorf("admin credit: user %q: %w", args[1], err)
	}
	bal, err := staff.New(pool).OperatorCredit(ctx, u.AccountID, amount, u.Username)
	if err != nil {
		return err
	}
	fmt.Printf("credited %d rials to %s; balance %d rials\n", amount, u.Username, bal)
	return nil
}

// requeue enqueues every unfinished batch of a send again (send.RequeueBatches).
func requeue(ctx context.Context, cfg config.Config, arg string) error {
	id, err := strconv.ParseInt(arg, 10, 64)
	if err != nil || id <= 0 {
		return fmt.Errorf("admin requeue: send id must be a positive integer, got %q", arg)
	}
	pool, err := cfg.DB().Open(ctx)
	if err != nil {
		return err
	}
	defer pool.Close()
	queue := asynq.NewClient(cfg.AsynqRedis())
	defer queue.Close()
	rdb := cfg.RedisClient()
	defer rdb.Close()
	// Announced like every task, so the idle gateways take them at once.
	n, err := send.New(pool, jobs.Waker{Enqueuer: queue, RDB: rdb}, line.New(pool), nil, 0, nil).RequeueBatches(ctx, id)
	if err != nil {
		return err
	}
	fmt.Printf("send %d: %d batches enqueued again\n", id, n)
	return nil
}

// engineMode prints one of the engine's modes (send.ClaimMode, send.IDStoreMode,
// send.InboundFormat), or sets it first when args names a value.
func engineMode(ctx context.Context, cfg config.Config, name string,
	get func(context.Context, *pgxpool.Pool) (string, error),
	set func(context.Context, *pgxpool.Pool, string) error, args []string) error {
	pool, err := cfg.DB().Open(ctx)
	if err != nil {
		return err
	}
	defer pool.Close()
	if len(args) == 1 {
		if err := set(ctx, pool, args[0]); err != nil {
			return err
		}
	}
	mode, err := get(ctx, pool)
	if err != nil {
		return err
	}
	fmt.Printf("%s: %s\n", name, mode)
	return nil
}
