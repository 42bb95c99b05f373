package payment

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/content"
	"github.com/chapar/chapar/pkg/wallet"
)

// Content kinds of the offers staff configure (pkg/content).
const (
	KindPackage   = "charge_package"
	KindTodayGift = "today_gift"
)

// Persian messages and ledger descriptions of the offers.
const (
	MsgNoPackage = "بسته شارژ انتخاب‌شده در دسترس نیست"
	descGift     = "هدیه شارژ امروز"
)

// Package is a charge package as the owner sees it: paying Amount (plus tax)
// credits Amount and then Bonus as a separate gift entry.
type Package struct {
	ID          int64  `json:"id"`
	Title       string `json:"title"`
	Description string `json:"description"`
	Amount      int64  `json:"amount"`
	Bonus       int64  `json:"bonus"`
	Tax         int64  `json:"tax"`
	Total       int64  `json:"total"`
}

// TodayGift is the today-only gift offer: extra credit for one paid online payment
// started while it is live, at most once per account and offer.
type TodayGift struct {
	Available   bool       `json:"available"`
	Received    bool       `json:"received"`
	ID          int64      `json:"id,omitempty"`
	Title       string     `json:"title,omitempty"`
	Description string     `json:"description,omitempty"`
	Amount      int64      `json:"amount,omitempty"`
	EndsAt      *time.Time `json:"ends_at,omitempty"`
}

// offer is what a payment was promised when it started.
type offer struct {
	packageID, giftID int64
	bonus, giftAmount int64
	bonusTitle        string
}

// Packages lists the live charge packages.
func (s *Service) Packages(ctx context.Context) ([]Package, error) {
	if s.Offers == nil {
		return []Package{}, nil
	}
	items, err := s.Offers.Live(ctx, KindPackage)
	if err != nil {
		return nil, err
	}
	out := make([]Package, 0, len(items))
	for _, it := range items {
		tax := Tax(it.Amount)
		out = append(out, Package{ID: it.ID, Title: it.Title, Description: it.Body, Amount: it.Amount, Bonus: it.Bonus,
			Tax: tax, Total: it.Amount + tax})
	}
	return out, nil
}

// StartPackage starts an online payment for a live charge package: its amount is
// the payment's, and its bonus is promised to the payment.
func (s *Service) StartPackage(ctx context.Context, r Request, packageID int64) (Started, error) {
	pkgs, err := s.Packages(ctx)
	if err != nil {
		return Started{}, err
	}
	for _, p := range pkgs {
		if p.ID == packageID {
			r.Amount, r.offer.packageID, r.offer.bonus, r.offer.bonusTitle = p.Amount, p.ID, p.Bonus, p.Title
			if r.Description == "" {
				r.Description = "خرید بسته شارژ «" + p.Title + "»"
			}
			return s.Start(ctx, r)
		}
	}
	return Started{}, apperr.Field("package_id", MsgNoPackage)
}

// TodayGift answers the live today gift and whether the account already received it.
func (s *Service) TodayGift(ctx context.Context, accountID int64) (TodayGift, error) {
	it, ok, err := s.liveGift(ctx)
	if err != nil || !ok {
		return TodayGift{}, err
	}
	g := TodayGift{Available: true, ID: it.ID, Title: it.Title, Description: it.Body, Amount: it.Amount, EndsAt: it.EndsAt}
	err = s.pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM today_gift_grants WHERE account_id = $1 AND gift_id = $2)`,
		accountID, it.ID).Scan(&g.Received)
	if err != nil {
		return g, fmt.Errorf("today gift grant: %w", err)
	}
	g.Available = !g.Received
	return g, nil
}

// liveGift is the first live today gift with an amount.
func (s *Service) liveGift(ctx context.Context) (content.Item, bool, error) {
	if s.Offers == nil {
		return content.Item{}, false, nil
	}
	items, err := s.Offers.Live(ctx, KindTodayGift)
	if err != nil {
		return content.Item{}, false, err
	}
	for _, it := range items {
		if it.Amount > 0 {
			return it, true, nil
		}
	}
	return content.Item{}, false, nil
}

// promiseGift adds the live today gift to a payment's offer unless the account
// already received it.
func (s *Service) promiseGift(ctx context.Context, accountID int64, o *offer) error {
	g, err := s.TodayGift(ctx, accountID)
	if err != nil {
		return err
	}
	if g.Available {
		o.giftID, o.giftAmount = g.ID, g.Amount
	}
	return nil
}

// grantBonuses writes a paid payment's promised bonuses inside its settling
// transaction, each a gift entry with its own reference: the package bonus, and
// the today gift when the account has not received that gift yet (the grants
// table's key decides, also between concurrent payments).
func grantBonuses(ctx context.Context, tx pgx.Tx, p Payment) (balance int64, credited bool, err error) {
	ref := "payment:" + strconv.FormatInt(p.ID, 10)
	if p.offer.bonus > 0 {
		balance, credited, err = wallet.Apply(ctx, tx, wallet.Entry{AccountID: p.accountID, Kind: wallet.Gift, Amount: p.offer.bonus,
			Ref: ref + ":package-bonus", Description: "اعتبار هدیه بسته شارژ «" + p.offer.bonusTitle + "»"})
		if err != nil {
			return 0, false, err
		}
	}
	if p.offer.giftID == 0 || p.offer.giftAmount <= 0 {
		return balance, credited, nil
	}
	tag, err := tx.Exec(ctx, `INSERT INTO today_gift_grants (account_id, gift_id, payment_id, amount) VALUES ($1, $2, $3, $4)
		ON CONFLICT DO NOTHING`, p.accountID, p.offer.giftID, p.ID, p.offer.giftAmount)
	if err != nil {
		return 0, false, fmt.Errorf("grant today gift: %w", err)
	}
	if tag.RowsAffected() == 0 {
		return balance, credited, nil
	}
	b, ok, err := wallet.Apply(ctx, tx, wallet.Entry{AccountID: p.accountID, Kind: wallet.Gift, Amount: p.offer.giftAmount,
		Ref: ref + ":today-gift", Description: descGift})
	if ok {
		balance, credited = b, true
	}
	return balance, credited, err
}
