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
}

func (s sendRow) halted() bool { return s.Status == "stopped" || s.Status == "failed" }

var errSendNotFound = errors.New("send not found")

func (st *store) loadSend(ctx context.Context, id int64) (sendRow, error) {
	s := sendRow{ID: id}
	var from, to *int
	err := st.pool.QueryRow(ctx,
		`SELECT s.account_id, s.sender, s.text, s.cancel11, s.status, coalesce(l.kind, ''), s.hours_start, s.hours_end,
		coalesce(s.pace_per_hour, 0) FROM sends s LEFT JOIN lines l ON l.id = s.line_id WHERE s.id = $1`, id,
	).Scan(&s.AccountID, &s.Sender, &s.Text, &s.Cancel11, &s.Status, &s.LineKind, &from, &to, &s.PacePerHour)
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

// stopBatch rejects the batch's recipients still queued with error
// 'stopped' and adds them to the send's rejected and stopped counters.
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
			WHERE send_id = $1 AND batch = $2 AND status = $4`,
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

// claimedRecipient is a recipient moved to status 7 by claim.
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

// claim moves up to limit queued recipients of the batch with an id above
// after to status 7 and records the claim (recipient_claims) in the same
// statement, with the first grant recipients granted — none when the send was
// paused, stopped or failed or its account suspended after the caller read it:
// the chunk then asks for a grant, is refused and puts its recipients back. Rows another consumer
// is claiming are skipped, never waited for. The claim walks the batch index
// (send_id, batch, id) from after, so a batch is read once however small its
// chunks. On an error the claim may still have been committed (its answer lost
// with the connection): the returned token names it for giveBack.
func (st *store) claim(ctx context.Context, sendID int64, batch int, operator string, after int64,
	limit, grant int, gateway string) (claimed, error) {
	token := rand.Int64()
	rows, err := st.pool.Query(ctx, `
		WITH c AS (
			UPDATE recipients SET status = $4, updated_at = now()
			WHERE id IN (
				SELECT id FROM recipients
				WHERE send_id = $1 AND batch = $2 AND id > $3 AND status = $5
				ORDER BY id
				LIMIT $6
				FOR UPDATE SKIP LOCKED)
			RETURNING id, mobile, text),
		k AS (
			INSERT INTO recipient_claims (send_id, batch, operator, ids, handed, gateway, token)
			SELECT $1, $2, $7, array_agg(id ORDER BY id),
				CASE WHEN EXISTS (SELECT 1 FROM sends s WHERE s.id = $1 AND `+grantable+`)
				THEN least($8::int, count(*)::int) ELSE 0 END, $9, $10
			FROM c HAVING count(*) > 0
			RETURNING id, handed)
		SELECT k.id, k.handed, c.id, c.mobile, c.text FROM c, k ORDER BY c.id`,
		sendID, batch, after, recipientSubmitting, recipientQueued, limit, operator, grant, gateway, token)
	out := claimed{token: token}
	if err != nil {
		return out, fmt.Errorf("claim recipients of send %d batch %d: %w", sendID, batch, err)
	}
	out.recs, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (claimedRecipient, error) {
		var c claimedRecipient
		err := r.Scan(&out.claimID, &out.handed, &c.ID, &c.Mobile, &c.Text)
		return c, err
	})
	if err != nil {
		return claimed{token: token}, fmt.Errorf("claim recipients of send %d batch %d: %w", sendID, batch, err)
	}
	return out, nil
}

// giveBack deletes the claim of the send recorded with token, if there is one,
// and queues its recipients again; it returns how many. Only for a claim whose
// answer never reached the gateway: none of its recipients was handed to the
// SMSC. A claim the sweeper has settled already is gone and left alone.
func (st *store) giveBack(ctx context.Context, sendID, token int64) (int, error) {
	tag, err := st.pool.Exec(ctx, `
		WITH c AS (DELETE FROM recipient_claims WHERE send_id = $1 AND token = $2 RETURNING ids)
		UPDATE recipients r SET status = $3, updated_at = now()
		FROM c WHERE r.id = ANY(c.ids) AND r.status = $4`,
		sendID, token, recipientQueued, recipientSubmitting)
	if err != nil {
		return 0, fmt.Errorf("give back the lost claim of send %d: %w", sendID, err)
	}
	return int(tag.RowsAffected()), nil
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
