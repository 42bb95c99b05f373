// Package onboarding answers the dashboard's «اولین قدم‌ها» (first steps) card:
// which of the steps a new customer takes in the first week this account has
// already taken, read from the account's real state (docs/dashboard.md#first-steps).
package onboarding

import (
	"context"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5/pgxpool"
)

// The steps, in the order the card lists them.
const (
	StepCredit    = "credit"    // the wallet was charged (a payment, or credit staff added); a gift is not a purchase
	StepLine      = "line"      // the account has a sender line of its own
	StepTest      = "test"      // a send went to the owner's own mobile
	StepPhonebook = "phonebook" // the account has a phonebook
)

// Step is one first step and whether the account has taken it.
type Step struct {
	Key  string `json:"key"`
	Done bool   `json:"done"`
}

// Steps is the card: every step and how many are done.
type Steps struct {
	Steps    []Step `json:"steps"`
	Done     int    `json:"done"`
	Complete bool   `json:"complete"`
	// Mobile is the owner's mobile (09…), where the test send goes.
	Mobile string `json:"mobile"`
}

// Service reads the steps.
type Service struct{ pool *pgxpool.Pool }

// New returns the service.
func New(pool *pgxpool.Pool) *Service { return &Service{pool: pool} }

// Of returns the first steps of the account, each read from the account's own
// rows only: a deposit or a positive staff credit in its ledger (a purchase staff
// credited by hand counts; the sign-up gift does not), a line it owns, a send of it whose numbers
// hold its owner's mobile (a failed send does not count), a phonebook of it.
func (s *Service) Of(ctx context.Context, accountID int64) (Steps, error) {
	var credit, line, test, book bool
	var mobile string
	err := s.pool.QueryRow(ctx, `SELECT
			coalesce((SELECT mobile FROM users WHERE account_id = $1 AND is_owner ORDER BY id LIMIT 1), ''),
			EXISTS (SELECT 1 FROM ledger WHERE account_id = $1 AND (kind = 'deposit' OR (kind = 'admin_credit' AND amount > 0))),
			EXISTS (SELECT 1 FROM lines WHERE account_id = $1),
			EXISTS (SELECT 1 FROM sends s JOIN users u ON u.account_id = s.account_id AND u.is_owner
				WHERE s.account_id = $1 AND s.status <> 'failed' AND u.mobile = ANY(s.numbers)),
			EXISTS (SELECT 1 FROM phonebooks WHERE account_id = $1)`, accountID).Scan(&mobile, &credit, &line, &test, &book)
	if err != nil {
		return Steps{}, fmt.Errorf("first steps: %w", err)
	}
	out := Steps{Steps: []Step{{StepCredit, credit}, {StepLine, line}, {StepTest, test}, {StepPhonebook, book}}}
	if len(mobile) == 12 && strings.HasPrefix(mobile, "98") {
		out.Mobile = "0" + mobile[2:]
	}
	for _, st := range out.Steps {
		if st.Done {
			out.Done++
		}
	}
	out.Complete = out.Done == len(out.Steps)
	return out, nil
}
