package offline_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/chapar/chapar/internal/testing/testenv"
	"github.com/chapar/chapar/migrations"
	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/payment/offline"
	"github.com/chapar/chapar/pkg/review"
	"github.com/chapar/chapar/pkg/upload"
)

// transferEnv is a database, the service with the platform's card and account, and
// two customer accounts.
type transferEnv struct {
	t    *testing.T
	d    testenv.Database
	svc  *offline.Service
	a, b acl.Identity
}

func newTransferEnv(t *testing.T) *transferEnv {
	d := testenv.Postgres(t)
	svc := offline.New(d.Pool, upload.NewDisk(t.TempDir()))
	svc.Dest = offline.Destination{CardNumber: "6037991234567893", IBAN: "IR820540102680020817909002"}
	e := &transferEnv{t: t, d: d, svc: svc}
	for _, id := range []*acl.Identity{&e.a, &e.b} {
		if err := d.Pool.QueryRow(context.Background(), `INSERT INTO accounts (name) VALUES ('حساب') RETURNING id`).
			Scan(&id.AccountID); err != nil {
			t.Fatal(err)
		}
	}
	return e
}

// report reports a card-to-card transfer of tracking number tn from who.
func (e *transferEnv) report(who acl.Identity, tn string) (offline.Payment, error) {
	return e.svc.Create(context.Background(), who, offline.Report{Method: offline.Card, Amount: "2000000",
		Source: "6037991234567893", TrackingNumber: tn, TransferredAt: time.Now().Add(-time.Hour).Format(time.RFC3339),
		Receipt: strings.NewReader("\x89PNG\r\n\x1a\n" + strings.Repeat("x", 64)), ReceiptName: "r.png"})
}

// decide approves or rejects report id as staff would.
func (e *transferEnv) decide(id int64, approve bool) error {
	return pgx.BeginFunc(context.Background(), e.d.Pool, func(tx pgx.Tx) error {
		_, err := e.svc.ReviewQueue().Decide(context.Background(), tx, review.Item{SubjectID: id},
			review.Decision{Approve: approve, Reason: "تکراری"})
		return err
	})
}

func isDuplicate(err error) bool {
	e, ok := apperr.As(err)
	return ok && len(e.Fields["tracking_number"]) > 0 && e.Fields["tracking_number"][0] == offline.MsgDuplicate
}

// One transfer (destination and tracking number) is reported once across accounts:
// a second account's report of it is refused while the first is pending or
// approved, accepted once the first is rejected, and the reviewer sees the other
// report. The same tracking number to another destination is another transfer.
func TestTransferUniqueAcrossAccounts(t *testing.T) {
	e := newTransferEnv(t)
	first, err := e.report(e.a, "123456789")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.report(e.b, "123456789"); !isDuplicate(err) {
		t.Fatalf("the same transfer reported by another account: %v", err)
	}
	if err := e.decide(first.ID, true); err != nil {
		t.Fatal(err)
	}
	if _, err := e.report(e.b, "۱۲۳۴۵۶۷۸۹"); !isDuplicate(err) {
		t.Fatalf("an approved transfer reported again: %v", err)
	}
	// Another destination card: another transfer.
	e.svc.Dest.CardNumber = "6104337777777774"
	other, err := e.report(e.b, "123456789")
	if err != nil {
		t.Fatalf("the same tracking number to another card: %v", err)
	}
	e.svc.Dest.CardNumber = "6037991234567893"
	// A rejected report frees its transfer for an honest report.
	second, err := e.report(e.a, "555666777")
	if err != nil {
		t.Fatal(err)
	}
	if err := e.decide(second.ID, false); err != nil {
		t.Fatal(err)
	}
	third, err := e.report(e.b, "555666777")
	if err != nil {
		t.Fatalf("a rejected transfer reported again: %v", err)
	}
	got, err := e.svc.ForReview(context.Background(), third.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Others) != 1 || got.Others[0].ID != second.ID || got.Others[0].State != offline.Rejected ||
		got.Others[0].AccountID != e.a.AccountID {
		t.Fatalf("the reviewer's other reports: %+v", got.Others)
	}
	if got, _ := e.svc.ForReview(context.Background(), other.ID); len(got.Others) != 0 {
		t.Fatalf("a transfer to another card listed as the same: %+v", got.Others)
	}
}

// Reports of one transfer in two accounts made before transfers were unique stay
// (the later marked duplicate_of the earlier); the reviewer sees each from the
// other, and once one is approved the other cannot be.
func TestLegacyDuplicateTransferNotCreditedTwice(t *testing.T) {
	e := newTransferEnv(t)
	first, err := e.report(e.a, "424242")
	if err != nil {
		t.Fatal(err)
	}
	// As the migration leaves a pair reported before it: no destination, the later
	// one marked a duplicate of the earlier.
	var legacy int64
	if _, err := e.d.Pool.Exec(context.Background(), `UPDATE offline_payments SET destination = '' WHERE id = $1`, first.ID); err != nil {
		t.Fatal(err)
	}
	if err := e.d.Pool.QueryRow(context.Background(), `INSERT INTO offline_payments (account_id, method, amount, tax, credit,
		source, tracking_number, transferred_at, receipt_key, receipt_type, receipt_size, duplicate_of)
		SELECT $1, method, amount, tax, credit, source, tracking_number, transferred_at, receipt_key, receipt_type,
		receipt_size, id FROM offline_payments WHERE id = $2 RETURNING id`, e.b.AccountID, first.ID).Scan(&legacy); err != nil {
		t.Fatal(err)
	}
	if got, err := e.svc.ForReview(context.Background(), legacy); err != nil || len(got.Others) != 1 || got.Others[0].ID != first.ID {
		t.Fatalf("the reviewer's other reports: %+v %v", got.Others, err)
	}
	if err := e.decide(first.ID, true); err != nil {
		t.Fatal(err)
	}
	err = e.decide(legacy, true)
	if ae, ok := apperr.As(err); !ok || ae.Kind != apperr.Conflict || ae.Message != offline.MsgApprovedElsewhere {
		t.Fatalf("the second report of a credited transfer approved: %v", err)
	}
	if _, err := e.report(e.b, "424242"); !isDuplicate(err) {
		t.Fatalf("a transfer of a report without destination reported again: %v", err)
	}
}

// The migration keeps reports of one transfer that two accounts made before it:
// it marks the later one duplicate_of the earlier (a rejected one stays unmarked)
// and the new unique index is built over the rest.
func TestTransferMigrationKeepsLegacyDuplicates(t *testing.T) {
	ctx := context.Background()
	e := newTransferEnv(t)
	sql := func(name string) string {
		b, err := migrations.FS.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	if _, err := e.d.Pool.Exec(ctx, sql("0115_offline_transfer_unique.down.sql")); err != nil {
		t.Fatal(err)
	}
	ids := make([]int64, 3)
	for i, acct := range []int64{e.a.AccountID, e.b.AccountID, e.b.AccountID} {
		state := []string{"approved", "pending", "rejected"}[i]
		if err := e.d.Pool.QueryRow(ctx, `INSERT INTO offline_payments (account_id, method, amount, tax, credit, source,
			tracking_number, transferred_at, receipt_key, receipt_type, receipt_size, state)
			VALUES ($1, 'card', 100, 10, 90, 's', '77777', now(), 'k', 'image/png', 1, $2) RETURNING id`, acct, state).
			Scan(&ids[i]); err != nil {
			t.Fatalf("legacy report %d: %v", i, err)
		}
	}
	if _, err := e.d.Pool.Exec(ctx, sql("0115_offline_transfer_unique.up.sql")); err != nil {
		t.Fatalf("migration over legacy duplicates: %v", err)
	}
	rows, _ := e.d.Pool.Query(ctx, `SELECT duplicate_of FROM offline_payments WHERE id = ANY($1) ORDER BY id`, ids)
	dup, err := pgx.CollectRows(rows, pgx.RowTo[*int64])
	if err != nil || len(dup) != 3 || dup[0] != nil || dup[1] == nil || *dup[1] != ids[0] || dup[2] != nil {
		t.Fatalf("duplicate_of after the migration: %v %v", dup, err)
	}
	if _, err := e.report(e.b, "77777"); !isDuplicate(err) {
		t.Fatalf("a legacy transfer reported again: %v", err)
	}
}
