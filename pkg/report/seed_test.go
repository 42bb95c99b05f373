package report_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/chapar/chapar/internal/testing/testenv"
)

// pool is the package's one migrated database; tests isolate by account.
var pool *pgxpool.Pool

func TestMain(m *testing.M) {
	d, drop, err := testenv.NewDatabase(context.Background(), true)
	if err != nil {
		fmt.Fprintln(os.Stderr, "report tests:", err)
		os.Exit(1)
	}
	pool = d.Pool
	code := m.Run()
	drop()
	os.Exit(code)
}

// account creates an account with an owner and returns both ids.
func account(t testing.TB) (accountID, userID int64, username string) {
	t.Helper()
	ctx := context.Background()
	b := make([]byte, 4)
	_, _ = rand.Read(b)
	username = "u" + hex.EncodeToString(b)
	if err := pool.QueryRow(ctx, `INSERT INTO accounts (name) VALUES ($1) RETURNING id`, username).Scan(&accountID); err != nil {
		t.Fatal(err)
	}
	if err := pool.QueryRow(ctx, `INSERT INTO users (account_id, username, password_hash, is_owner)
		VALUES ($1, $2, 'x', true) RETURNING id`, accountID, username).Scan(&userID); err != nil {
		t.Fatal(err)
	}
	return accountID, userID, username
}

// sendSeed is a sends row; zero fields take the column defaults.
type sendSeed struct {
	Created     time.Time
	Type        string
	Status      string
	Text        string
	Requested   int
	Recipients  int
	Submitted   int
	Delivered   int
	Undelivered int
	Blacklisted int
	Rejected    int
	Parts       int
	TotalParts  int64
	Quote       int64
	Cost        int64
	Refunded    int64
	Expanded    bool
	StoppedBy   int64
	Stopped     bool
	Finished    bool
	SendAt      *time.Time
}

func seedSend(t testing.TB, accountID int64, s sendSeed) int64 {
	t.Helper()
	if s.Created.IsZero() {
		s.Created = time.Now().Add(-time.Hour)
	}
	if s.Type == "" {
		s.Type = "quick"
	}
	if s.Status == "" {
		s.Status = "done"
	}
	if s.Text == "" {
		s.Text = "سلام"
	}
	var expandedAt, stoppedAt, finishedAt *time.Time
	at := s.Created.Add(time.Minute)
	if s.Expanded {
		expandedAt = &at
	}
	if s.Stopped {
		stoppedAt = &at
	}
	if s.Finished {
		finishedAt = &at
	}
	var stoppedBy *int64
	if s.StoppedBy != 0 {
		stoppedBy = &s.StoppedBy
	}
	var id int64
	err := pool.QueryRow(context.Background(), `INSERT INTO sends (account_id, type, sender, text, status,
		requested, recipients, submitted, delivered, undelivered, blacklisted, rejected, parts, total_parts,
		quote, cost, refunded, expanded_at, stopped_by, stopped_at, finished_at, send_at, created_at)
		VALUES ($1, $2, '3000123', $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22)
		RETURNING id`, accountID, s.Type, s.Text, s.Status, s.Requested, s.Recipients, s.Submitted, s.Delivered,
		s.Undelivered, s.Blacklisted, s.Rejected, s.Parts, s.TotalParts, s.Quote, s.Cost, s.Refunded,
		expandedAt, stoppedBy, stoppedAt, finishedAt, s.SendAt, s.Created).Scan(&id)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// seedRecipients inserts n recipients g = 1..n of a send in batches of 2000;
// statusExpr is an SQL expression of g giving the stored status.
func seedRecipients(t testing.TB, sendID int64, n int, statusExpr string) {
	t.Helper()
	_, err := pool.Exec(context.Background(), `INSERT INTO recipients (send_id, batch, mobile, operator, parts, cost, status, error)
		SELECT $1, g / 2000, '98912' || lpad(g::text, 7, '0'),
		       CASE WHEN g % 3 = 0 THEN 'irancell' ELSE 'mci' END, 1 + g % 2, 190, `+statusExpr+`,
		       CASE WHEN `+statusExpr+` = 6 THEN 'ESME_RSUBMITFAIL' ELSE '' END
		FROM generate_series(1, $2::int) g`, sendID, n)
	if err != nil {
		t.Fatal(err)
	}
}
