package main

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"github.com/chapar/chapar/pkg/account"
	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/config"
	"github.com/chapar/chapar/pkg/db"
)

func migrate(ctx context.Context, cfg config.Config, args []string) error {
	pool, err := db.Open(ctx, cfg.DatabaseURL)
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
	demoUser     = "demo"
	demoPassword = "Demo@12345"
	demoMobile   = "09120000000"
)

// seedDemo creates the demo account once; running it again changes nothing.
func seedDemo(ctx context.Context, cfg config.Config) error {
	pool, err := db.Open(ctx, cfg.DatabaseURL)
	if err != nil {
		return err
	}
	defer pool.Close()
	accounts := account.New(pool)
	u, err := accounts.ByUsername(ctx, demoUser)
	if errors.Is(err, apperr.ErrNotFound) {
		u, err = accounts.Register(ctx, account.RegisterInput{Name: "حساب نمایشی", Username: demoUser, Mobile: demoMobile,
			Password: demoPassword, PasswordConfirmation: demoPassword, AcceptRules: true, TwoStepOff: true}, "127.0.0.1")
	}
	if err != nil {
		return fmt.Errorf("seed demo user: %w", err)
	}
	fmt.Printf("demo account ready: user %s (id %d)\n", u.Username, u.ID)
	return nil
}

func admin(ctx context.Context, cfg config.Config, args []string) error {
	return fmt.Errorf("admin %v: unknown command", args)
}
