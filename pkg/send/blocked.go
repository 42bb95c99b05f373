package send

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/chapar/chapar/pkg/blocklist"
	"github.com/chapar/chapar/pkg/validate"
	"github.com/chapar/chapar/pkg/wallet"
)

// DefaultBlockedErr is the "err:" code of a receipt by which a carrier says the
// subscriber blocked advertising SMS (*800#), unless CARRIER_BLOCKED_ERR says
// otherwise. The simulator answers blocked numbers with it (stat REJECTD).
const DefaultBlockedErr = "014"

// MsgCarrierBlocked is the reason shown on a recipient whose carrier answered it
// blocked: it is refunded and its number joins the operator's block list.
const MsgCarrierBlocked = "گیرنده دریافت پیامک تبلیغاتی را نزد اپراتور (*۸۰۰#) مسدود کرده است؛ هزینه این پیامک بازگردانده شد"

// BlockedCodes are the receipt error codes that mean "blocked by the subscriber":
// one for every operator, and an operator's own where it differs.
type BlockedCodes struct {
	Default     string
	PerOperator map[string]string
}

// ParseBlockedCodes reads CARRIER_BLOCKED_ERR: "014" (every operator), or
// "014,irancell=0C1" (an operator's own code after the default); empty means
// DefaultBlockedErr for every operator.
func ParseBlockedCodes(v string) (BlockedCodes, error) {
	c := BlockedCodes{Default: DefaultBlockedErr, PerOperator: map[string]string{}}
	for item := range strings.SplitSeq(v, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		op, code, ok := strings.Cut(item, "=")
		if !ok {
			c.Default = item
			continue
		}
		if op = strings.TrimSpace(op); op == "" || strings.TrimSpace(code) == "" {
			return c, fmt.Errorf("CARRIER_BLOCKED_ERR: %q: want operator=code", item)
		}
		c.PerOperator[op] = strings.TrimSpace(code)
	}
	return c, nil
}

// Blocked reports whether a receipt's error from op means the subscriber blocked
// advertising SMS. Codes compare as numbers when both are decimal ("14" is "014").
func (c BlockedCodes) Blocked(op, err string) bool {
	want, ok := c.PerOperator[op]
	if !ok {
		want = c.Default
	}
	if want == "" {
		want = DefaultBlockedErr
	}
	err = strings.TrimSpace(err)
	if err == "" {
		return false
	}
	a, e1 := strconv.Atoi(err)
	b, e2 := strconv.Atoi(want)
	if e1 == nil && e2 == nil {
		return a == b
	}
	return strings.EqualFold(err, want)
}

// SetBlockedCodes sets the receipt error codes that mean "blocked".
func (s *Service) SetBlockedCodes(c BlockedCodes) { s.blockedCodes = c }

// moneyMove is a balance a receipt batch moved (told after the commit).
type moneyMove struct{ accountID, balance int64 }

// applyBlocked handles the undelivered receipts whose error says the subscriber
// blocked advertising SMS: their numbers join the operator's block list, and
// their recipients, once final, show «لیست سیاه» and are refunded in full, as a
// recipient the carrier refused at submit is. The send's refunded total moves
// with the ledger, so its close (Finalize, which counts these recipients in what
// it refunds) stays exact whether it comes before or after.
func applyBlocked(ctx context.Context, tx pgx.Tx, rs []Receipt, m receiptMatch, codes BlockedCodes, out *Applied) error {
	var mobiles, ops []string
	var rids []int64
	for g, r := range rs {
		if r.Stat != StatUndelivered || !codes.Blocked(r.Operator, r.Err) {
			continue
		}
		if mob, ok := validate.NormalizeMobile(r.Mobile); ok {
			mobiles, ops = append(mobiles, mob), append(ops, r.Operator)
		}
		if m.key[g] != "" && !m.wait[g] {
			rids = append(rids, m.rid[g])
		}
	}
	if len(mobiles) == 0 && len(rids) == 0 {
		return nil
	}
	groups, err := blockRecipients(ctx, tx, rids, &mobiles, &ops)
	if err != nil {
		return err
	}
	if _, err := blocklist.AddFromReceipts(ctx, tx, mobiles, ops); err != nil {
		return err
	}
	for _, g := range groups {
		mv, err := refundBlocked(ctx, tx, g)
		if err != nil {
			return err
		}
		out.moves = append(out.moves, mv)
	}
	return nil
}

// blockedGroup is a send's recipients a receipt batch found blocked.
type blockedGroup struct {
	sendID, firstID, cost int64
	n                     int
}

// blockRecipients marks the final, not reached recipients of rids blocked and
// returns them per send; their numbers are added to mobiles and ops. A
// recipient some of whose parts the carrier refused at submit keeps its failed
// state: the send's close refunds it by the parts rule, and a full refund here
// on top of that would pay back more than it cost.
func blockRecipients(ctx context.Context, tx pgx.Tx, rids []int64, mobiles, ops *[]string) ([]blockedGroup, error) {
	if len(rids) == 0 {
		return nil, nil
	}
	rows, err := tx.Query(ctx, `UPDATE recipients x SET status = 4, error = $2, updated_at = now()
		WHERE x.id = ANY($1::bigint[]) AND x.status = 3 AND x.parts_rejected = 0
		RETURNING x.id, x.send_id, x.cost, x.mobile, x.operator`, rids, MsgCarrierBlocked)
	if err != nil {
		return nil, fmt.Errorf("blocked recipients: %w", err)
	}
	defer rows.Close()
	bySend := map[int64]*blockedGroup{}
	var order []int64
	for rows.Next() {
		var id, sendID, cost int64
		var mob, op string
		if err := rows.Scan(&id, &sendID, &cost, &mob, &op); err != nil {
			return nil, fmt.Errorf("blocked recipients: %w", err)
		}
		*mobiles, *ops = append(*mobiles, mob), append(*ops, op)
		g, ok := bySend[sendID]
		if !ok {
			g = &blockedGroup{sendID: sendID, firstID: id}
			bySend[sendID] = g
			order = append(order, sendID)
		}
		g.cost += cost
		g.n++
		g.firstID = min(g.firstID, id)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("blocked recipients: %w", err)
	}
	out := make([]blockedGroup, 0, len(order))
	for _, id := range order {
		out = append(out, *bySend[id])
	}
	return out, nil
}

// refundBlocked refunds a send's blocked recipients, once (the ref names the
// first of them; a recipient is marked blocked only once).
func refundBlocked(ctx context.Context, tx pgx.Tx, g blockedGroup) (moneyMove, error) {
	var accountID int64
	if err := tx.QueryRow(ctx, `UPDATE sends SET refunded = refunded + $2, updated_at = now() WHERE id = $1 RETURNING account_id`,
		g.sendID, g.cost).Scan(&accountID); err != nil {
		return moneyMove{}, fmt.Errorf("refund blocked recipients: %w", err)
	}
	id := strconv.FormatInt(g.sendID, 10)
	balance, _, err := wallet.Apply(ctx, tx, wallet.Entry{AccountID: accountID, Kind: wallet.Refund, Amount: g.cost, SendID: g.sendID,
		Ref: "send:" + id + ":blocked:" + strconv.FormatInt(g.firstID, 10), Description: "بازگشت هزینه پیامک‌های مسدود نزد اپراتور " + id})
	return moneyMove{accountID: accountID, balance: balance}, err
}
