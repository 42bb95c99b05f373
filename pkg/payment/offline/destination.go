package offline

import (
	"context"
	"sync"
	"time"
)

// Destination is where customers transfer offline payments to: the platform's card
// and bank account (settings OFFLINE_*, pkg/config).
type Destination struct {
	CardNumber    string `json:"card_number"`
	CardOwner     string `json:"card_owner"`
	BankName      string `json:"bank_name"`
	IBAN          string `json:"sheba"`
	AccountNumber string `json:"account_number"`
	AccountOwner  string `json:"account_owner"`
}

// Method is one way to pay, as the panel's payment method list shows it.
type Method struct {
	Key     string `json:"key"`
	Title   string `json:"title"`
	Enabled bool   `json:"enabled"`
}

// Methods lists the payment methods: online always, card-to-card and bank transfer
// when their destination is configured.
func (d Destination) Methods() []Method {
	return []Method{
		{Key: "online", Title: "پرداخت آنلاین", Enabled: true},
		{Key: Card, Title: "کارت به کارت", Enabled: d.CardNumber != ""},
		{Key: Bank, Title: "واریز بانکی (پایا / ساتنا)", Enabled: d.IBAN != ""},
	}
}

// CardOwner is what a bank's card inquiry tells of a card.
type CardOwner struct {
	CardNumber string `json:"card_number"`
	Owner      string `json:"owner"`
	BankName   string `json:"bank_name"`
}

// CardInquiry asks a bank who owns a card (a PSP's card-holder inquiry).
type CardInquiry interface {
	Owner(ctx context.Context, card string) (CardOwner, error)
}

// SandboxInquiry answers card inquiries without a bank: the destination card's
// configured owner, and the issuing bank of any card from its BIN.
type SandboxInquiry struct{ Dest Destination }

// banks names the issuers of the common Iranian BINs.
var banks = map[string]string{
	"603799": "بانک ملی ایران", "589210": "بانک سپه", "627353": "بانک تجارت", "610433": "بانک ملت",
	"603769": "بانک صادرات ایران", "621986": "بانک سامان", "627412": "بانک اقتصاد نوین", "502229": "بانک پاسارگاد",
	"622106": "بانک پارسیان", "589463": "بانک رفاه کارگران", "603770": "بانک کشاورزی", "628023": "بانک مسکن",
}

// Owner answers the card's owner (known only for the destination card) and bank.
func (b SandboxInquiry) Owner(_ context.Context, card string) (CardOwner, error) {
	o := CardOwner{CardNumber: card, BankName: banks[card[:min(6, len(card))]]}
	if card == b.Dest.CardNumber {
		o.Owner = b.Dest.CardOwner
		if b.Dest.BankName != "" {
			o.BankName = b.Dest.BankName
		}
	}
	return o, nil
}

// OwnerCacheTTL is how long a card inquiry's answer is kept (spec §7: 60 s).
const OwnerCacheTTL = 60 * time.Second

// Directory answers the destination and its card's owner, asking the bank at most
// once per OwnerCacheTTL.
type Directory struct {
	Dest    Destination
	Inquiry CardInquiry
	mu      sync.Mutex
	cached  CardOwner
	until   time.Time
}

// NewDirectory returns the directory of a destination with the sandbox inquiry.
func NewDirectory(d Destination) *Directory {
	return &Directory{Dest: d, Inquiry: SandboxInquiry{Dest: d}}
}

// CardOwner answers the destination card's owner, cached for OwnerCacheTTL.
func (d *Directory) CardOwner(ctx context.Context) (CardOwner, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if time.Now().Before(d.until) {
		return d.cached, nil
	}
	o, err := d.Inquiry.Owner(ctx, d.Dest.CardNumber)
	if err != nil {
		return o, err
	}
	d.cached, d.until = o, time.Now().Add(OwnerCacheTTL)
	return o, nil
}
