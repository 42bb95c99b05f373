package send

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// Claim modes (settings 'claim_mode', migrations/0198): how a gateway claims a
// chunk of recipients. Every process of this release reads both kinds of claim.
const (
	// ClaimRanges: the claim is its recipient_claims row alone; the recipients stay
	// queued (5), and one a live claim names is being submitted.
	ClaimRanges = "ranges"
	// ClaimRows: the claim also moves its recipients to status 7, as the previous
	// release claims: the mode while a process of that release may still run.
	ClaimRows = "rows"
)

// ID stores (settings 'id_store', migrations/0199): where a gateway keeps the
// lookup from an accepted part's message id to its recipient. Every process of
// this release reads both.
const (
	// IDsRedis: the hashes mid:<route>:<hour> in Redis (IDStore), the ids also on
	// the recipient (msg_ids) for a receipt whose id Redis lost.
	IDsRedis = "redis"
	// IDsTable: a message_ids row as well, which the previous release's workers
	// read: the mode while a process of that release may still run.
	IDsTable = "table"
)

// Inbound formats (settings 'inbound_format', migrations/0201): how a gateway
// writes a receipt or MO part to the inbound stream. Every worker of this
// release reads both.
const (
	// InboundPacked: one field holding every value (gateway.Inbound.Packed).
	InboundPacked = "packed"
	// InboundFields: one field a value (gateway.Inbound.Values), which the
	// previous release's workers read: the mode while one of them may still run.
	InboundFields = "fields"
)

// ErrClaimMode is a claim mode that is neither ClaimRanges nor ClaimRows.
var ErrClaimMode = errors.New("claim mode must be ranges or rows")

// ErrIDStore is an id store that is neither IDsRedis nor IDsTable.
var ErrIDStore = errors.New("id store must be redis or table")

// ErrInboundFormat is an inbound format that is neither InboundPacked nor
// InboundFields.
var ErrInboundFormat = errors.New("inbound format must be packed or fields")

// mode is a setting that switches the engine from the previous release's way
// to this release's (new) once every process runs this release.
type mode struct {
	key, new, old string
	bad           error
}

var (
	claimModeSetting = mode{key: "claim_mode", new: ClaimRanges, old: ClaimRows, bad: ErrClaimMode}
	idStoreSetting   = mode{key: "id_store", new: IDsRedis, old: IDsTable, bad: ErrIDStore}
	inboundSetting   = mode{key: "inbound_format", new: InboundPacked, old: InboundFields, bad: ErrInboundFormat}
)

// get reads the mode; a database without the setting is in the old one (the
// gateways read it so too).
func (m mode) get(ctx context.Context, pool *pgxpool.Pool) (string, error) {
	var v string
	err := pool.QueryRow(ctx, `SELECT value #>> '{}' FROM settings WHERE key = $1`, m.key).Scan(&v)
	if errors.Is(err, pgx.ErrNoRows) || (err == nil && v != m.new) {
		return m.old, nil
	}
	if err != nil {
		return "", fmt.Errorf("read %s: %w", m.key, err)
	}
	return v, nil
}

// set writes the mode; each gateway takes it at its next chunk.
func (m mode) set(ctx context.Context, pool *pgxpool.Pool, v string) error {
	if !slices.Contains([]string{m.new, m.old}, v) {
		return fmt.Errorf("%w, got %q", m.bad, v)
	}
	if _, err := pool.Exec(ctx, `INSERT INTO settings (key, value, updated_at) VALUES ($1, to_jsonb($2::text), now())
		ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, updated_at = now()`, m.key, v); err != nil {
		return fmt.Errorf("set %s: %w", m.key, err)
	}
	return nil
}

// ClaimMode is the gateways' claim mode; a database without the setting is in
// ClaimRows.
func ClaimMode(ctx context.Context, pool *pgxpool.Pool) (string, error) {
	return claimModeSetting.get(ctx, pool)
}

// SetClaimMode sets the gateways' claim mode; each gateway takes it at its next
// chunk. Switch to ClaimRanges only once no process of the previous release runs
// (docs/upgrades.md): its gateways would claim a range claim's recipients again.
func SetClaimMode(ctx context.Context, pool *pgxpool.Pool, v string) error {
	return claimModeSetting.set(ctx, pool, v)
}

// IDStoreMode is the gateways' id store; a database without the setting is in
// IDsTable.
func IDStoreMode(ctx context.Context, pool *pgxpool.Pool) (string, error) {
	return idStoreSetting.get(ctx, pool)
}

// SetIDStoreMode sets the gateways' id store; each gateway takes it at its next
// chunk. Switch to IDsRedis only once no process of the previous release runs
// (docs/upgrades.md): its workers match receipts in message_ids alone.
func SetIDStoreMode(ctx context.Context, pool *pgxpool.Pool, v string) error {
	return idStoreSetting.set(ctx, pool, v)
}

// InboundFormat is the gateways' inbound format; a database without the setting
// is in InboundFields.
func InboundFormat(ctx context.Context, pool *pgxpool.Pool) (string, error) {
	return inboundSetting.get(ctx, pool)
}

// SetInboundFormat sets the gateways' inbound format; each gateway takes it
// within InboundFormatEvery. Switch to InboundPacked only once no worker of the
// previous release runs (docs/upgrades.md): it would quarantine packed entries.
func SetInboundFormat(ctx context.Context, pool *pgxpool.Pool, v string) error {
	return inboundSetting.set(ctx, pool, v)
}

// InboundFormatEvery is how often a gateway reads the inbound format.
const InboundFormatEvery = 5 * time.Second
