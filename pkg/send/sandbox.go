package send

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"github.com/jackc/pgx/v5"

	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/audit"
)

// createSandbox accepts a send of a sandbox API key (docs/developers.md): it is
// validated and priced like any other, then stored already done, marked sandbox,
// with every recipient counted as delivered (simulated receipts). It writes no
// ledger entry, enqueues nothing, and so never reaches an SMSC; its price is 0 (the
// quote of what it would cost stays in sends.quote). Idempotency-Key and local_id
// behave as for real sends.
func (s *Service) createSandbox(ctx context.Context, id acl.Identity, r Request, p prepared, idemKey, hash, ip string) (Accepted, bool, error) {
	a := Accepted{Status: StatusDone, Sandbox: true}
	var key, keyHash *string
	if idemKey != "" {
		key, keyHash = &idemKey, &hash
	}
	n := p.quote.Recipients
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		err := tx.QueryRow(ctx, `INSERT INTO sends (account_id, user_id, api_key_id, type, line_id, sender, text, cancel11,
			encoding, parts, status, idempotency_key, numbers, source, requested, duplicates, invalid, blacklisted, quote, ip,
			request_hash, local_id, sandbox, recipients, submitted, delivered, total_parts, expanded_at, finished_at)
			VALUES ($1, nullif($2, 0), nullif($3, 0), $4, $5, $6, $7, $8, $9, $10, 'done', $11, $12, $13, $14, $15, $16, $17, $18,
			$19, $20, nullif($21, ''), true, $22, $22, $22, $23, now(), now())
			ON CONFLICT (account_id, idempotency_key) DO NOTHING RETURNING id`,
			id.AccountID, id.UserID, id.APIKeyID, p.typ, p.line.ID, p.line.Number, textOf(p.typ, r.Text), p.quote.Cancel11,
			p.quote.Encoding, p.quote.Parts, key, p.numbers, p.src, p.quote.Requested, p.quote.Duplicates, p.quote.Invalid,
			p.quote.Blacklisted, p.quote.Price, ip, keyHash, r.LocalID, n, p.quote.TotalParts).Scan(&a.ID)
		if errors.Is(err, pgx.ErrNoRows) {
			return errDuplicateKey
		}
		if localIDTaken(err) {
			return apperr.New(apperr.Conflict, MsgLocalIDTaken).WithCode(CodeLocalIDTaken)
		}
		if err != nil {
			return fmt.Errorf("insert sandbox send: %w", err)
		}
		return audit.Record(ctx, tx, audit.Entry{AccountID: id.AccountID, UserID: id.UserID, APIKeyID: id.APIKeyID,
			Action: audit.SendCreate, TargetType: "send", Target: strconv.FormatInt(a.ID, 10), IP: ip,
			Details: map[string]any{"recipients": n, "price": 0, "status": StatusDone, "sandbox": true}})
	})
	if errors.Is(err, errDuplicateKey) {
		first, _, err := s.byIdempotencyKey(ctx, id.AccountID, idemKey, hash)
		first.Sandbox = true
		return first, false, err
	}
	if err != nil {
		return Accepted{}, false, err
	}
	return a, true, nil
}
