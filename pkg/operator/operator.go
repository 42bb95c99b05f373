// Package operator owns the carriers as data: the prefix table that routes a number
// to MCI, Irancell, Rightel or "other" (overriding the numbering plan's allocation,
// pkg/numbering, for ported or re-assigned blocks), and the tariffs that price a message per
// part and operator (spec §9: a per-send fee and the Irancell/Rightel surcharge).
// Both are read from the database, so a change needs no deploy.
package operator

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/chapar/chapar/pkg/numbering"
)

// Operator codes.
const (
	MCI      = numbering.MCI
	Irancell = numbering.Irancell
	Rightel  = numbering.Rightel
	Other    = numbering.Other
)

// Sandbox is the route of sandbox API keys' sends: every recipient of such a send
// has it as operator, costs 0 and goes only to the simulator. It is not a carrier,
// so not among Codes.
const Sandbox = "sandbox"

// Codes lists the operators in display order.
var Codes = []string{MCI, Irancell, Rightel, Other}

// Routes lists every operator a recipient may have: Codes, then Sandbox.
var Routes = []string{MCI, Irancell, Rightel, Other, Sandbox}

// Tariff prices one operator's messages.
type Tariff struct {
	PartPrice    int64
	SurchargePct int64
	SendFee      int64
}

// Price of one recipient's message of n parts: the parts at the operator's part
// price plus its surcharge, and the per-send fee. Integer rials, never floats.
func (t Tariff) Price(parts int) int64 {
	if parts <= 0 {
		return 0
	}
	base := int64(parts) * t.PartPrice
	return base + base*t.SurchargePct/100 + t.SendFee
}

// CharityPct is the charity share recorded on each send's cost (spec §9).
const CharityPct = 5

// Prefix lengths the table may hold: 98 and three to five national digits (9XX to 9XXXX).
const (
	minPrefix = 5
	maxPrefix = 7
)

// Table is a snapshot of the prefixes and an account's tariffs.
type Table struct {
	prefixes map[string]string
	tariffs  map[string]Tariff
}

// Querier is a pool or a transaction.
type Querier interface {
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
}

// Load reads the prefix table and the tariffs that apply to an account (its own
// rows override the defaults). Inside a transaction, pass the transaction.
func Load(ctx context.Context, pool Querier, accountID int64) (*Table, error) {
	t := &Table{prefixes: map[string]string{}, tariffs: map[string]Tariff{}}
	rows, err := pool.Query(ctx, `SELECT prefix, operator FROM operator_prefixes`)
	if err != nil {
		return nil, fmt.Errorf("load prefixes: %w", err)
	}
	for rows.Next() {
		var p, op string
		if err := rows.Scan(&p, &op); err != nil {
			rows.Close()
			return nil, fmt.Errorf("scan prefix: %w", err)
		}
		t.prefixes[p] = op
	}
	rows.Close()
	rows, err = pool.Query(ctx, `SELECT DISTINCT ON (operator) operator, part_price, surcharge_pct, send_fee
		FROM tariffs WHERE account_id = $1 OR account_id IS NULL ORDER BY operator, account_id NULLS LAST`, accountID)
	if err != nil {
		return nil, fmt.Errorf("load tariffs: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var op string
		var tr Tariff
		if err := rows.Scan(&op, &tr.PartPrice, &tr.SurchargePct, &tr.SendFee); err != nil {
			return nil, fmt.Errorf("scan tariff: %w", err)
		}
		t.tariffs[op] = tr
	}
	return t, rows.Err()
}

// Classify returns the operator of a normalised mobile (98XXXXXXXXXX): the longest
// prefix of the table (data: overrides and ported blocks) that matches, else the
// operator the numbering plan allocated the block to (pkg/numbering).
func (t *Table) Classify(mobile string) string {
	for n := min(len(mobile), maxPrefix); n >= minPrefix; n-- {
		if op, ok := t.prefixes[mobile[:n]]; ok {
			return op
		}
	}
	return numbering.Default(mobile)
}

// Price returns the price of one message of n parts to an operator.
func (t *Table) Price(op string, parts int) int64 {
	return t.Tariff(op).Price(parts)
}

// Tariff returns the tariff of an operator (the "other" operator's when it has none).
func (t *Table) Tariff(op string) Tariff {
	tr, ok := t.tariffs[op]
	if !ok {
		tr = t.tariffs[Other]
	}
	return tr
}
