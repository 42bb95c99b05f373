package main

import (
	"context"
	"fmt"
	"strconv"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/chapar/chapar/pkg/bank"
	"github.com/chapar/chapar/pkg/config"
)

// seedBank fills the number bank of targeted sends with size generated numbers
// (docs/targeted-sends.md); the same size again changes nothing.
func seedBank(ctx context.Context, pool *pgxpool.Pool, size int) error {
	wrote, err := bank.Seed(ctx, pool, bank.DemoSeed, size)
	if err != nil {
		return fmt.Errorf("seed number bank: %w", err)
	}
	if wrote {
		fmt.Printf("number bank ready: %d numbers\n", size)
	}
	return nil
}

// seedBankCommand is `api seed-bank [size]` (the benchmark seeds 10,000,000).
func seedBankCommand(ctx context.Context, cfg config.Config, args []string) error {
	size := cfg.BankSize
	if len(args) > 0 {
		n, err := strconv.Atoi(args[0])
		if err != nil || n <= 0 {
			return fmt.Errorf("seed-bank: size %q is not a positive number", args[0])
		}
		size = n
	}
	pool, err := cfg.DB().Open(ctx)
	if err != nil {
		return err
	}
	defer pool.Close()
	return seedBank(ctx, pool, size)
}
