package payment

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/audit"
	"github.com/chapar/chapar/pkg/validate"
)

// settingsKey is the settings row of the staff's gateway choice.
const settingsKey = "payment_gateway"

// Persian messages of the gateway settings.
const (
	MsgGatewayUnknown   = "درگاه پرداخت انتخاب‌شده در این سامانه در دسترس نیست"
	MsgZarinpalMerchant = "مرچنت کد زرین‌پال باید ۳۶ نویسه به شکل xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx باشد"
	MsgSEPTerminal      = "شماره ترمینال سامان باید ۶ تا ۱۲ رقم باشد"
	MsgZarinpalNeeded   = "برای فعال‌کردن زرین‌پال، مرچنت کد را وارد کنید"
	MsgSEPNeeded        = "برای فعال‌کردن سامان، شماره ترمینال را وارد کنید"
)

// gatewayTitles are the gateways' Persian names.
var gatewayTitles = map[string]string{
	GatewaySandbox:  "بانک آزمایشی (بدون پرداخت واقعی)",
	GatewayZarinpal: "زرین‌پال",
	GatewaySEP:      "سامان (سپ)",
}

var merchantID = regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)

// storedGateways is the settings row: the merchant and terminal ids sealed.
type storedGateways struct {
	Active   string `json:"active"`
	Zarinpal string `json:"zarinpal_merchant_id,omitempty"`
	SEP      string `json:"sep_terminal_id,omitempty"`
}

// GatewayOption is one gateway staff may choose.
type GatewayOption struct {
	Name  string `json:"name"`
	Title string `json:"title"`
	// Ready is a gateway whose merchant or terminal id is set (the sandbox always).
	Ready bool `json:"ready"`
}

// GatewaySettings is the staff's view of the gateway choice; the ids are masked,
// never answered in full.
type GatewaySettings struct {
	Active             string          `json:"active"`
	Gateways           []GatewayOption `json:"gateways"`
	ZarinpalMerchantID string          `json:"zarinpal_merchant_id"`
	SEPTerminalID      string          `json:"sep_terminal_id"`
	UpdatedAt          *time.Time      `json:"updated_at"`
}

// GatewayChange is what staff submit; an empty id keeps the stored one.
type GatewayChange struct {
	Active             string `json:"active"`
	ZarinpalMerchantID string `json:"zarinpal_merchant_id"`
	SEPTerminalID      string `json:"sep_terminal_id"`
}

// Settings keeps the staff's choice of gateway and the gateways' ids (sealed) in
// the settings table; without a row the default (PAYMENT_GATEWAY) is active.
type Settings struct {
	pool *pgxpool.Pool
	seal sealer
	// Default is the gateway active until staff choose one.
	Default string
	// Offered are the gateways staff may choose, in order.
	Offered []string
}

// NewSettings returns the gateway settings; secret keys the sealing of the ids.
func NewSettings(pool *pgxpool.Pool, secret, def string, offered []string) *Settings {
	return &Settings{pool: pool, seal: newSealer(secret), Default: def, Offered: offered}
}

// read loads the row (zero without one) and its time.
func (st *Settings) read(ctx context.Context, q interface {
	QueryRow(context.Context, string, ...any) pgx.Row
}, lock bool) (storedGateways, *time.Time, error) {
	sql := `SELECT value, updated_at FROM settings WHERE key = $1`
	if lock {
		sql += ` FOR UPDATE`
	}
	var raw []byte
	var at time.Time
	err := q.QueryRow(ctx, sql, settingsKey).Scan(&raw, &at)
	if errors.Is(err, pgx.ErrNoRows) {
		return storedGateways{Active: st.Default}, nil, nil
	}
	if err != nil {
		return storedGateways{}, nil, fmt.Errorf("read gateway settings: %w", err)
	}
	var s storedGateways
	if err := json.Unmarshal(raw, &s); err != nil {
		return s, nil, fmt.Errorf("read gateway settings: %w", err)
	}
	return s, &at, nil
}

// Active is the name of the gateway new payments go to.
func (st *Settings) Active(ctx context.Context) (string, error) {
	s, _, err := st.read(ctx, st.pool, false)
	return s.Active, err
}

// ZarinpalMerchant is the configured Zarinpal merchant id.
func (st *Settings) ZarinpalMerchant(ctx context.Context) (string, error) {
	s, _, err := st.read(ctx, st.pool, false)
	if err != nil {
		return "", err
	}
	return st.need(st.seal.open(s.Zarinpal))
}

// SEPTerminal is the configured SEP terminal id.
func (st *Settings) SEPTerminal(ctx context.Context) (string, error) {
	s, _, err := st.read(ctx, st.pool, false)
	if err != nil {
		return "", err
	}
	return st.need(st.seal.open(s.SEP))
}

func (st *Settings) need(v string, err error) (string, error) {
	if err == nil && v == "" {
		err = errors.New("payment: gateway id not configured")
	}
	return v, err
}

// View is the staff's view of the settings, the ids masked.
func (st *Settings) View(ctx context.Context) (GatewaySettings, error) {
	s, at, err := st.read(ctx, st.pool, false)
	if err != nil {
		return GatewaySettings{}, err
	}
	return st.view(s, at), nil
}

func (st *Settings) view(s storedGateways, at *time.Time) GatewaySettings {
	zp, _ := st.seal.open(s.Zarinpal)
	sep, _ := st.seal.open(s.SEP)
	v := GatewaySettings{Active: s.Active, ZarinpalMerchantID: Mask(zp), SEPTerminalID: Mask(sep), UpdatedAt: at}
	for _, name := range st.Offered {
		ready := name == GatewaySandbox || (name == GatewayZarinpal && zp != "") || (name == GatewaySEP && sep != "")
		v.Gateways = append(v.Gateways, GatewayOption{Name: name, Title: gatewayTitles[name], Ready: ready})
	}
	return v
}

// Set stores the staff's choice: the active gateway must be offered and have its
// id; a new id replaces the stored one, an empty one keeps it. Audited with the
// ids masked.
func (st *Settings) Set(ctx context.Context, by acl.Identity, in GatewayChange, ip string) (GatewaySettings, error) {
	in.ZarinpalMerchantID = strings.TrimSpace(in.ZarinpalMerchantID)
	in.SEPTerminalID = validate.NormalizeDigits(strings.TrimSpace(in.SEPTerminalID))
	var out GatewaySettings
	err := pgx.BeginFunc(ctx, st.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtext('settings:payment_gateway'))`); err != nil {
			return fmt.Errorf("lock gateway settings: %w", err)
		}
		old, at, err := st.read(ctx, tx, true)
		if err != nil {
			return err
		}
		next, err := st.apply(old, in)
		if err != nil {
			return err
		}
		raw, _ := json.Marshal(next)
		if _, err := tx.Exec(ctx, `INSERT INTO settings (key, value) VALUES ($1, $2)
			ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, updated_at = now()`, settingsKey, raw); err != nil {
			return fmt.Errorf("save gateway settings: %w", err)
		}
		now := time.Now()
		out = st.view(next, &now)
		return audit.Record(ctx, tx, audit.Entry{UserID: by.UserID, Action: "staff.payment_gateway_changed",
			TargetType: "settings", Target: settingsKey, IP: ip, Before: auditView(st.view(old, at)), After: auditView(out),
			Details: map[string]any{"staff": by.Username}})
	})
	return out, err
}

// apply checks a change against the stored row and returns the row to store.
func (st *Settings) apply(old storedGateways, in GatewayChange) (storedGateways, error) {
	f := apperr.Fields{}
	if !slices.Contains(st.Offered, in.Active) {
		f.Add("active", MsgGatewayUnknown)
	}
	if in.ZarinpalMerchantID != "" && !merchantID.MatchString(in.ZarinpalMerchantID) {
		f.Add("zarinpal_merchant_id", MsgZarinpalMerchant)
	}
	if n := len(in.SEPTerminalID); n > 0 && (n < 6 || n > 12 || strings.Trim(in.SEPTerminalID, "0123456789") != "") {
		f.Add("sep_terminal_id", MsgSEPTerminal)
	}
	if err := f.Err(); err != nil {
		return old, err
	}
	next := storedGateways{Active: in.Active, Zarinpal: old.Zarinpal, SEP: old.SEP}
	var err error
	if in.ZarinpalMerchantID != "" {
		if next.Zarinpal, err = st.seal.seal(in.ZarinpalMerchantID); err != nil {
			return old, err
		}
	}
	if in.SEPTerminalID != "" {
		if next.SEP, err = st.seal.seal(in.SEPTerminalID); err != nil {
			return old, err
		}
	}
	v := st.view(next, nil)
	if in.Active == GatewayZarinpal && v.ZarinpalMerchantID == "" {
		f.Add("zarinpal_merchant_id", MsgZarinpalNeeded)
	}
	if in.Active == GatewaySEP && v.SEPTerminalID == "" {
		f.Add("sep_terminal_id", MsgSEPNeeded)
	}
	return next, f.Err()
}

// auditView is what the audit log keeps of the settings: the choice and the
// masked ids.
func auditView(v GatewaySettings) map[string]string {
	return map[string]string{"active": v.Active, "zarinpal_merchant_id": v.ZarinpalMerchantID, "sep_terminal_id": v.SEPTerminalID}
}
