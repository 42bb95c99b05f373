package send

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"time"

	"github.com/hibiken/asynq"
	"github.com/jackc/pgx/v5"

	"github.com/chapar/chapar/jobs"
	"github.com/chapar/chapar/pkg/bank"
	"github.com/chapar/chapar/pkg/line"
	"github.com/chapar/chapar/pkg/operator"
	"github.com/chapar/chapar/pkg/wallet"
)

// BatchSize is how many recipients one per-operator batch task carries (asynq costs
// about 100 µs per task, so never one task per recipient).
const BatchSize = 1000

type batchKey struct {
	operator string
	batch    int
}

// HandleExpand is the worker's send:expand handler: it turns a send into
// recipients in one transaction (normalised, deduped, blacklisted ones marked,
// classified by operator, priced, COPYed), settles the hold to the exact cost (the
// recipients the credit cannot pay for are dropped, see expansion), and then
// enqueues the per-operator batch tasks. A retry after a commit only re-enqueues
// the batches (their task ids make that a no-op).
func (s *Service) HandleExpand(ctx context.Context, t *asynq.Task) error {
	var p jobs.SendExpand
	if err := json.Unmarshal(t.Payload(), &p); err != nil {
		return fmt.Errorf("expand payload: %w: %w", err, asynq.SkipRetry)
	}
	start := time.Now()
	x, err := s.expand(ctx, p.SendID)
	if err != nil {
		return err
	}
	if x.walked {
		s.metrics.expanded(time.Since(start), x.recipients)
	}
	if x.moved {
		s.moneyChanged(ctx, x.accountID, x.balance)
	}
	if err := s.enqueueBatches(ctx, p.SendID, x.batches, x.critical, ""); err != nil {
		return err
	}
	if x.walked {
		s.analyzeLoaded(ctx, p.SendID, x.recipients)
	}
	return nil
}

// expanded is what an expansion did: the send's batches and whether they are
// critical, the account's balance when the settlement moved it, and, when this
// expansion walked the recipients, how many it queued.
type expanded struct {
	batches            []batchKey
	critical           bool
	accountID, balance int64
	moved, walked      bool
	recipients         int
}

func (s *Service) expand(ctx context.Context, sendID int64) (out expanded, err error) {
	var batches []batchKey
	var critical bool
	var accountID, balance int64
	var moved bool
	err = pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		var status, typ, text string
		var cancel11 bool
		var numbers, texts []string
		var src Source
		var quote int64
		var expanded, sandbox, masked, advertising bool
		err := tx.QueryRow(ctx, `SELECT account_id, status, type, text, cancel11, coalesce(numbers, '{}'), source, quote,
			expanded_at IS NOT NULL, coalesce(texts, '{}'), sandbox, masked,
			coalesce((SELECT l.kind = $2 FROM lines l WHERE l.id = sends.line_id), false)
			FROM sends WHERE id = $1 FOR NO KEY UPDATE`, sendID, line.KindAdvertising).
			Scan(&accountID, &status, &typ, &text, &cancel11, &numbers, &src, &quote, &expanded, &texts, &sandbox, &masked, &advertising)
		if errors.Is(err, pgx.ErrNoRows) {
			return fmt.Errorf("send %d not found: %w", sendID, asynq.SkipRetry)
		}
		if err != nil {
			return fmt.Errorf("lock send: %w", err)
		}
		critical = IsCritical(typ)
		if expanded {
			batches, err = existingBatches(ctx, tx, sendID)
			return err
		}
		if status != StatusQueued {
			return nil // stopped before expansion (the stop refunded the hold), or not due yet
		}
		// Read through the transaction: a second pool connection while holding one
		// can starve the pool under load.
		tbl, err := operator.Load(ctx, tx, accountID)
		if err != nil {
			return err
		}
		free, err := wallet.Spendable(ctx, tx, accountID)
		if err != nil {
			return err
		}
		x := newExpansion(sendID, quote+free)
		x.sandbox = sandbox
		w := walker{typ: typ, text: text, cancel11: cancel11, masked: masked, advertising: advertising, numbers: numbers,
			texts: texts, src: src, tbl: tbl, sized: s.links.Sized}
		tot, err := w.walk(ctx, tx, accountID, func(rows []planned) error { return x.copy(ctx, tx, rows) })
		if err != nil {
			return err
		}
		batches = x.batches()
		out.walked, out.recipients = true, x.queued()
		balance, moved, err = x.settle(ctx, tx, accountID, quote, tot, len(batches))
		if err == nil && bank.IsBankType(typ) {
			err = bank.RecordReached(ctx, tx, accountID, sendID)
		}
		return err
	})
	out.batches, out.critical, out.accountID, out.balance, out.moved = batches, critical, accountID, balance, moved
	return out, err
}

// MsgOperatorBlocked is the reason shown on a recipient of an advertising send
// left out for being on its operator's advertising block list (*800#).
const MsgOperatorBlocked = "این شماره دریافت پیامک تبلیغاتی را نزد اپراتور خود (*۸۰۰#) مسدود کرده است؛ پیامک ارسال نشد و هزینه‌ای کسر نشد"

// MsgUnpaid is the reason shown on a recipient dropped at expansion: neither the
// send's hold nor the account's free credit could pay for it, so it was not sent
// and nothing was charged for it.
const MsgUnpaid = "اعتبار کیف پول برای این گیرنده کافی نبود؛ پیامک ارسال نشد و هزینه‌ای کسر نشد"

// expansion writes a send's recipients as the walk finds them. The source may hold
// more recipients at expansion than when the send was priced (a number left the
// blacklist, a contact joined the phonebook), so recipients are paid in source order
// from budget, the hold plus the account's free credit; from the first one that does
// not fit, every later one is dropped: stored rejected at cost 0 with MsgUnpaid,
// counted in unpaid, never sent.
type expansion struct {
	sendID   int64
	budget   int64
	spent    int64
	unpaid   int
	counters map[string]int
	acc      *quoteAcc
	buf      [][]any
	// sandbox: every recipient is free and on the sandbox route (sandbox.go).
	sandbox bool
}

var recipientCols = []string{"send_id", "batch", "mobile", "operator", "parts", "cost", "status", "text", "error"}

func newExpansion(sendID, budget int64) *expansion {
	return &expansion{sendID: sendID, budget: budget, counters: map[string]int{}, acc: newQuoteAcc(),
		buf: make([][]any, 0, chunkRows)}
}

// row is the recipients row of one planned recipient.
func (x *expansion) row(r planned) []any {
	if x.sandbox {
		r = sandboxCost(r)
	}
	switch {
	case r.blocked:
		reason := ""
		if r.carrier {
			reason = MsgOperatorBlocked
		}
		return []any{x.sendID, int32(-1), r.mobile, r.op, int16(r.parts), int64(0), int16(RcptBlacklisted), r.text, reason}
	case x.unpaid > 0 || x.spent+r.cost > x.budget:
		x.unpaid++
		return []any{x.sendID, int32(-1), r.mobile, r.op, int16(r.parts), int64(0), int16(RcptRejected), r.text, MsgUnpaid}
	}
	x.spent += r.cost
	x.acc.addOne(r)
	n := x.counters[r.op]
	x.counters[r.op] = n + 1
	return []any{x.sendID, int32(batchNumber(r.op, n/BatchSize)), r.mobile, r.op, int16(r.parts), r.cost, int16(RcptQueued), r.text, ""}
}

// copy writes one chunk of recipients.
func (x *expansion) copy(ctx context.Context, tx pgx.Tx, rows []planned) error {
	x.buf = x.buf[:0]
	for _, r := range rows {
		x.buf = append(x.buf, x.row(r))
	}
	if _, err := tx.CopyFrom(ctx, pgx.Identifier{"recipients"}, recipientCols, pgx.CopyFromRows(x.buf)); err != nil {
		return fmt.Errorf("copy recipients: %w", err)
	}
	return nil
}

// queued is how many recipients the expansion queued.
func (x *expansion) queued() int {
	n := 0
	for _, c := range x.counters {
		n += c
	}
	return n
}

// batches lists the per-operator batches of the queued recipients.
func (x *expansion) batches() []batchKey {
	var out []batchKey
	for _, op := range operator.Routes {
		for i := 0; i*BatchSize < x.counters[op]; i++ {
			out = append(out, batchKey{operator: op, batch: batchNumber(op, i)})
		}
	}
	return out
}

// settle records the send's figures and settles the hold to the exact cost of the
// queued recipients: it releases the difference or charges it, under the balance
// check like any debit. The budget kept the charge within the credit read before
// the walk; if the credit fell meanwhile, the debit is refused, the transaction
// rolls back and the retried task walks again.
func (x *expansion) settle(ctx context.Context, tx pgx.Tx, accountID, quote int64, tot walkTotals, batches int) (int64, bool, error) {
	var q Quote
	x.acc.fill(&q)
	next := StatusSending
	if q.Recipients == 0 {
		next = StatusDone
	}
	// blacklisted counts every recipient left out for a list (status «لیست سیاه»),
	// operator_blocked those of them on their operator's block list.
	if _, err := tx.Exec(ctx, `UPDATE sends SET status = $2, recipients = $3, blacklisted = $4, cost = $5,
		total_parts = $6, charity = $7, batches = $8, unpaid = $9, operator_blocked = $10, expanded_at = now(), updated_at = now(),
		finished_at = CASE WHEN $2 = 'done' THEN now() END WHERE id = $1`,
		x.sendID, next, q.Recipients, tot.blacklisted+tot.operatorBlocked, q.Price, q.TotalParts, q.Charity, batches, x.unpaid,
		tot.operatorBlocked); err != nil {
		return 0, false, fmt.Errorf("update send: %w", err)
	}
	if x.unpaid > 0 {
		slog.InfoContext(ctx, "recipients beyond the credit dropped", "send", x.sendID, "unpaid", x.unpaid)
	}
	kind := wallet.Release
	if q.Price > quote {
		kind = wallet.Charge
	}
	id := strconv.FormatInt(x.sendID, 10)
	balance, moved, err := wallet.Apply(ctx, tx, wallet.Entry{AccountID: accountID, Kind: kind, Amount: quote - q.Price,
		SendID: x.sendID, Ref: "send:" + id + ":settle", Description: "تسویه هزینه ارسال " + id})
	if errors.Is(err, wallet.ErrInsufficient) {
		return 0, false, fmt.Errorf("settle send %d: the credit fell during expansion: %w", x.sendID, err)
	}
	return balance, moved, err
}

// batchNumber gives each operator its own range of batch numbers within a send.
func batchNumber(op string, i int) int {
	for k, code := range operator.Codes {
		if code == op {
			return k*1_000_000 + i
		}
	}
	return 9_000_000 + i
}

func existingBatches(ctx context.Context, tx pgx.Tx, sendID int64) ([]batchKey, error) {
	return batchesWith(ctx, tx, sendID, RcptQueued)
}

// batchesWith lists the send's batches that hold recipients in any of the statuses.
func batchesWith(ctx context.Context, tx pgx.Tx, sendID int64, statuses ...int16) ([]batchKey, error) {
	rows, err := tx.Query(ctx, `SELECT DISTINCT operator, batch FROM recipients WHERE send_id = $1 AND status = ANY($2)`,
		sendID, statuses)
	if err != nil {
		return nil, fmt.Errorf("batches of send %d: %w", sendID, err)
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (batchKey, error) {
		var b batchKey
		err := r.Scan(&b.operator, &b.batch)
		return b, err
	})
}

// enqueueBatches enqueues batch tasks; suffix distinguishes a sweeper's re-enqueue.
func (s *Service) enqueueBatches(ctx context.Context, sendID int64, batches []batchKey, critical bool, suffix string) error {
	var firstErr error
	for _, b := range batches {
		task, err := jobs.NewSendBatch(jobs.SendBatch{SendID: sendID, Batch: b.batch, Operator: b.operator}, critical)
		if err != nil {
			return err
		}
		var opts []asynq.Option
		if suffix != "" {
			opts = append(opts, asynq.TaskID(fmt.Sprintf("batch:%d:%d:%s", sendID, b.batch, suffix)))
		}
		if _, err := s.queue.EnqueueContext(ctx, task, opts...); err != nil && !errors.Is(err, asynq.ErrTaskIDConflict) {
			slog.WarnContext(ctx, "enqueue batch", "send", sendID, "batch", b.batch, "err", err)
			if firstErr == nil {
				firstErr = fmt.Errorf("enqueue batch %d/%d: %w", sendID, b.batch, err)
			}
		}
	}
	return firstErr
}
