package gateway

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/chapar/chapar/pkg/sendrules"
)

// Recipient statuses the gateway reads and writes (migrations/0002).
const (
	recipientSent       = 0
	recipientQueued     = 5
	recipientRejected   = 6
	recipientSubmitting = 7
)

// store holds the gateway's SQL.
type store struct {
	pool *pgxpool.Pool
}

// sendRow is what a batch needs of its send.
type sendRow struct {
	ID        int64
	AccountID int64
	Sender    string
	Text      string
	Cancel11  bool
	Status    string
	// LineKind and Own are what the sending hours read: the kind of the send's
	// line and the account's own hours stored on the send (nil: none).
	LineKind string
	Own      *sendrules.Window
	// PacePerHour, when above zero, is a gradual send's pace (pace.go).
	PacePerHour int
	// Ranges is the claim mode (settings 'claim_mode', migrations/0198): true,
	// a claim is its recipient_claims row alone; false, it also moves its
	// recipients to status 7, as the previous release does.
	Ranges bool
	// RedisIDs is the id store (settings 'id_store', migrations/0199): true, the
	// message ids go to Redis; false, to message_ids too, as the previous
	// release reads them.
	RedisIDs bool
}

func (s sendRow) halted() bool { return s.Status == "stopped" || s.Status == "failed" }

var errSendNotFound = errors.New("send not found")

func (st *store) loadSend(ctx context.Context, id int64) (sendRow, error) {
	s := sendRow{ID: id}
	var from, to *int
	err := st.pool.QueryRow(ctx,
		`SELECT s.account_id, s.sender, s.text, s.cancel11, s.status, coalesce(l.kind, ''), s.hours_start, s.hours_end,
		coalesce(s.pace_per_hour, 0), coalesce((SELECT value #>> '{}' FROM settings WHERE key = 'claim_mode'), '') = 'ranges',
		coalesce((SELECT value #>> '{}' FROM settings WHERE key = 'id_store'), '') = 'redis'
		FROM sends s LEFT JOIN lines l ON l.id = s.line_id WHERE s.id = $1`, id,
	).Scan(&s.AccountID, &s.Sender, &s.Text, &s.Cancel11, &s.Status, &s.LineKind, &from, &to, &s.PacePerHour, &s.Ranges, &s.RedisIDs)
	if from != nil && to != nil {
		s.Own = &sendrules.Window{From: *from, To: *to}
	}
	if errors.Is(err, pgx.ErrNoRows) {
		return s, fmt.Errorf("send %d: %w", id, errSendNotFound)
	}
	if err != nil {
		return s, fmt.Errorf("load send %d: %w", id, err)
	}
	return s, nil
}

// stopBatch rejects the batch's recipients still queued and not in a live claim
// with error 'stopped' and adds them to the send's rejected and stopped counters.
func (st *store) stopBatch(ctx context.Context, sendID int64, batch int) (int64, error) {
	var n int64
	err := pgx.BeginFunc(ctx, st.pool, func(tx pgx.Tx) error {
		// The send first, then its recipients: the order Stop takes them in, so
		// the two never wait for each other.
		if _, err := tx.Exec(ctx, `SELECT 1 FROM sends WHERE id = $1 FOR NO KEY UPDATE`, sendID); err != nil {
			return fmt.Errorf("lock stopped send: %w", err)
		}
		tag, err := tx.Exec(ctx, `
			UPDATE recipients SET status = $3, error = 'stopped', updated_at = now()
			WHERE send_id = $1 AND batch = $2 AND status = $4 AND `+notClaimed+``,
			sendID, batch, recipientRejected, recipientQueued)
		if err != nil {
			return fmt.Errorf("reject stopped recipients: %w", err)
		}
		if n = tag.RowsAffected(); n == 0 {
			return nil
		}
		if _, err := tx.Exec(ctx,
			`UPDATE sends SET rejected = rejected + $2, stopped = stopped + $2, updated_at = now() WHERE id = $1`, sendID, n); err != nil {
			return fmt.Errorf("count stopped recipients: %w", err)
		}
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("stop batch %d of send %d: %w", batch, sendID, err)
	}
	return n, nil
}

// notClaimed is the SQL condition that a queued recipient of send $1, batch $2 is
// in no live claim: one named by a claim is being submitted (migrations/0198).
const notClaimed = `id NOT IN (SELECT unnest(k.ids) FROM recipient_claims k WHERE k.send_id = $1 AND k.batch = $2)`

// claimedRecipient is a recipient of a claim.
type claimedRecipient struct {
	ID     int64
	Mobile string
	Text   *string // overrides the send's text when not NULL
}

// claimed is one claimed chunk: its recipient_claims row and its recipients
// in id order, the order they are handed to the SMSC in.
type claimed struct {
	claimID int64
	// token is the random number the claim was recorded with: the claim's name
	// when its answer is lost (giveBack).
	token  int64
	handed int // the first handed recipients may go to the SMSC
	recs   []claimedRecipient
}

// claimRowsSQL moves the recipients it claims to status 7 (the previous release's
// claim, and 'rows' mode): rows being claimed by another consumer are skipped.
const claimRowsSQL = `
		WITH c AS (
			UPDATE recipients SET status = $4, updated_at = now()
			WHERE id IN (
				SELECT id FROM recipients
				WHERE send_id = $1 AND batch = $2 AND id > $3 AND status = $5 AND ` + notClaimed + `
				ORDER BY id
				LIMIT $6
				FOR UPDATE SKIP LOCKED)
			RETURNING id, mobile, text),
		k AS (
			INSERT INTO recipient_claims (send_id, batch, operator, ids, handed, gateway, token)
			SELECT $1, $2, $7, array_agg(id ORDER BY id),
				CASE WHEN EXISTS (SELECT 1 FROM sends s WHERE s.id = $1 AND ` + grantable + `)
				THEN least($8::int, count(*)::int) ELSE 0 END, $9, $10
			FROM c HAVING count(*) > 0
			RETURNING id, handed)
		SELECT k.id, k.handed, c.id, c.mobile, c.text FROM c, k ORDER BY c.id`

// claimRangesSQL writes the claim's row alone ('ranges' mode): its recipients stay
// queued. The send's row is share-locked, so a stop (which locks it first) either
// sees the claim or is seen by it (no grant); consumers of one batch are serialized
// by claimLockSQL, run first in the same transaction.
const claimRangesSQL = `
		WITH c AS (
			SELECT id, mobile, text FROM recipients
			WHERE send_id = $1 AND batch = $2 AND id > $3 AND status = $4 AND ` + notClaimed + `
			ORDER BY id
			LIMIT $5),
		g AS (SELECT ` + grantable + ` AS ok FROM sends s WHERE s.id = $1 FOR SHARE OF s),
		k AS (
			INSERT INTO recipient_claims (send_id, batch, operator, ids, handed, gateway, token)
			SELECT $1, $2, $6, array_agg(id ORDER BY id),
				CASE WHEN coalesce((SELECT ok FROM g), false) THEN least($7::int, count(*)::int) ELSE 0 END, $8, $9
			FROM c HAVING count(*) > 0
			RETURNING id, handed)
		SELECT k.id, k.handed, c.id, c.mobile, c.text FROM c, k ORDER BY c.id`

// claimLockSQL serializes the claims of one batch (send $1, batch $2) until the
// transaction ends: a claim then sees every claim made before it.
const claimLockSQL = `SELECT pg_advisory_xact_lock(hashtextextended('claim', $1::bigint # ($2::bigint << 40)))`

// claim claims up to limit queued recipients of the batch with an id above after
// that no live claim names, and records the claim (recipient_claims) with the first
// grant recipients granted — none when the send was paused, stopped or failed or
// its account suspended after the caller read it: the chunk then asks for a grant,
// is refused and puts its recipients back. In ranges mode the claim is that row
// alone; otherwise its recipients move to status 7. The claim walks the batch
// index (send_id, batch, id) from after, so a batch is read once however small its
// chunks. On an error the claim may still have been committed (its answer lost
// with the connection): the returned token names it for giveBack.
func (st *store) claim(ctx context.Context, sendID int64, batch int, operator string, after int64,
	limit, grant int, gateway string, ranges bool) (claimed, error) {
	token := rand.Int64()
	out := claimed{token: token}
	q, args := claimRowsSQL, []any{sendID, batch, after, recipientSubmitting, recipientQueued, limit, operator, grant, gateway, token}
	if ranges {
		q, args = claimRangesSQL, []any{sendID, batch, after, recipientQueued, limit, operator, grant, gateway, token}
	}
	err := pgx.BeginFunc(ctx, st.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, claimLockSQL, sendID, batch); err != nil {
			return err
		}
		rows, err := tx.Query(ctx, q, args...)
		if err != nil {
			return err
		}
		out.recs, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (claimedRecipient, error) {
			var c claimedRecipient
			err := r.Scan(&out.claimID, &out.handed, &c.ID, &c.Mobile, &c.Text)
			return c, err
		})
		return err
	})
	if err != nil {
		return claimed{token: token}, fmt.Errorf("claim recipients of send %d batch %d: %w", sendID, batch, err)
	}
	return out, nil
}

// giveBack deletes the claim of the send recorded with token, if there is one,
// and queues its recipients again (those of a claim in rows mode); it returns how
// many recipients the claim named. Only for a claim whose answer never reached the gateway: none
// of its recipients was handed to the SMSC. A claim the sweeper has settled
// already is gone and left alone.
func (st *store) giveBack(ctx context.Context, sendID, token int64) (int, error) {
	var n int
	err := st.pool.QueryRow(ctx, `
		WITH c AS (DELETE FROM recipient_claims WHERE send_id = $1 AND token = $2 RETURNING ids),
		r AS (UPDATE recipients r SET status = $3, updated_at = now()
			FROM c WHERE r.id = ANY(c.ids) AND r.status = $4)
		SELECT coalesce(sum(cardinality(ids)), 0) FROM c`,
		sendID, token, recipientQueued, recipientSubmitting).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("give back the lost claim of send %d: %w", sendID, err)
	}
	return n, nil
}

// lowerClaims lowers the grant of each of a dead gateway's claims to the
// recipients it started (its journal says so) and leaves the claim for the
// sweeper's next pass; it returns the recipients that go back to the queue
// instead of being taken as submitted with an unknown outcome. A claim the
// sweeper has settled already is gone and left alone.
func (st *store) lowerClaims(ctx context.Context, claims []journalClaim) (int, error) {
	ids := make([]int64, len(claims))
	started := make([]int32, len(claims))
	for i, c := range claims {
		ids[i], started[i] = c.ID, int32(min(c.Started, math.MaxInt32))
	}
	var spared int
	err := st.pool.QueryRow(ctx, `
		WITH u AS (SELECT * FROM unnest($1::bigint[], $2::int[]) AS u(id, started)),
		old AS (SELECT c.id, c.handed FROM recipient_claims c JOIN u USING (id) FOR UPDATE OF c),
		x AS (
			UPDATE recipient_claims c SET handed = least(c.handed, u.started), renewed_at = '-infinity'
			FROM u JOIN old USING (id) WHERE c.id = u.id
			RETURNING greatest(old.handed - u.started, 0) AS spared)
		SELECT coalesce(sum(spared), 0) FROM x`, ids, started).Scan(&spared)
	if err != nil {
		return 0, fmt.Errorf("lower dead gateway's claims: %w", err)
	}
	return spared, nil
}
