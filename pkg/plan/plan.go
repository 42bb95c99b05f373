// Package plan holds the panel plans of spec §6 (basic, pro, enterprise), their
// limits and the services each opens, and enforces them where things are created:
// colleagues, API keys, secretaries and keyword readers. A refusal is a 403 with
// message_code plan-limit or plan-service and a Persian message naming the limit
// and the plan that lifts it. pkg/profile shows the plans and the usage.
package plan

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/persian"
)

// Plan is one of the panel plans and its limits.
type Plan struct {
	Code       string   `json:"code"`
	Title      string   `json:"title"`
	Lines      int      `json:"lines"`
	Colleagues int      `json:"colleagues"`
	APIKeys    int      `json:"api_keys"`
	FilesMB    int      `json:"files_mb"`
	Services   []string `json:"services"`
}

// Service codes of the plans (the facilities page).
const (
	ServiceBulk      = "bulk_send"
	ServicePattern   = "pattern"
	ServiceAPI       = "webservice"
	ServicePhonebook = "phonebook"
	ServiceVoiceOTP  = "voice_otp"
	ServiceUTM       = "utm_tracking"
	ServiceSecretary = "secretary"
	ServiceKeyword   = "keyword_reader"
	ServiceLocation  = "location_send"
	ServiceOwnLine   = "dedicated_line"
)

// Plans are the plans in upgrade order; each has its predecessors' services.
var Plans = []Plan{
	{Code: "basic", Title: "پایه", Lines: 1, Colleagues: 2, APIKeys: 2, FilesMB: 200,
		Services: []string{ServiceBulk, ServicePattern, ServiceAPI, ServicePhonebook}},
	{Code: "pro", Title: "حرفه‌ای", Lines: 3, Colleagues: 10, APIKeys: 10, FilesMB: 2000,
		Services: []string{ServiceVoiceOTP, ServiceUTM, ServiceSecretary, ServiceKeyword}},
	{Code: "enterprise", Title: "سازمانی", Lines: 10, Colleagues: 50, APIKeys: 50, FilesMB: 20000,
		Services: []string{ServiceLocation, ServiceOwnLine}},
}

// Get returns the plan of a code (the first, basic, for an unknown one).
func Get(code string) Plan {
	for _, p := range Plans {
		if p.Code == code {
			return p
		}
	}
	return Plans[0]
}

// Has reports whether plan p opens a service: its own or an earlier plan's.
func Has(p Plan, service string) bool {
	for _, q := range Plans {
		for _, s := range q.Services {
			if s == service {
				return true
			}
		}
		if q.Code == p.Code {
			return false
		}
	}
	return false
}

// MinPlan is the first plan that opens a service.
func MinPlan(service string) Plan {
	for _, q := range Plans {
		for _, s := range q.Services {
			if s == service {
				return q
			}
		}
	}
	return Plans[len(Plans)-1]
}

// Querier is the transaction a creation runs in.
type Querier interface {
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

// Of returns the account's plan and serialises the account's creations under it
// until tx ends (a transaction lock per account), so two at once cannot both take
// the last place.
func Of(ctx context.Context, tx Querier, accountID int64) (Plan, error) {
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtextextended('plan:' || $1::bigint, 0))`, accountID); err != nil {
		return Plan{}, fmt.Errorf("plan lock: %w", err)
	}
	var code string
	if err := tx.QueryRow(ctx, `SELECT plan FROM accounts WHERE id = $1`, accountID).Scan(&code); err != nil {
		return Plan{}, fmt.Errorf("account plan: %w", err)
	}
	return Get(code), nil
}

// Limit is a counted thing of an account: its Persian name, its plan limit and
// the count of what already takes a place.
type Limit struct {
	name  string
	max   func(Plan) int
	count string
}

// The counted limits.
var (
	// Colleagues: the colleagues not deactivated (pending invitations included).
	Colleagues = Limit{"همکاران", func(p Plan) int { return p.Colleagues },
		`SELECT count(*) FROM users WHERE account_id = $1 AND NOT is_owner AND status <> 'disabled'`}
	// APIKeys: the keys not revoked, sandbox keys included.
	APIKeys = Limit{"کلیدهای API", func(p Plan) int { return p.APIKeys },
		`SELECT count(*) FROM api_keys WHERE account_id = $1 AND revoked_at IS NULL`}
)

// CheckLimit refuses (403 plan-limit) one more of l when the account already has
// its plan's number of them. It runs in the creation's transaction.
func CheckLimit(ctx context.Context, tx Querier, accountID int64, l Limit) error {
	p, err := Of(ctx, tx, accountID)
	if err != nil {
		return err
	}
	var n int
	if err := tx.QueryRow(ctx, l.count, accountID).Scan(&n); err != nil {
		return fmt.Errorf("count %s: %w", l.name, err)
	}
	if max := l.max(p); n >= max {
		return apperr.New(apperr.Forbidden, "سقف "+l.name+" در پلن «"+p.Title+"» "+
			persian.Digits(fmt.Sprint(max))+" است؛ برای افزودن بیشتر، ارتقای پلن را با تیکت به پشتیبانی درخواست کنید").
			WithCode("plan-limit")
	}
	return nil
}

// serviceTitles are the Persian names of the services a creation checks.
var serviceTitles = map[string]string{
	ServiceSecretary: "منشی پیامک", ServiceKeyword: "کلیدخوان", ServiceVoiceOTP: "کد تایید صوتی",
	ServiceUTM: "ردیابی آماری لینک", ServiceLocation: "ارسال منطقه‌ای و مکانی", ServiceOwnLine: "خط اختصاصی",
}

// CheckService refuses (403 plan-service) a service the account's plan does not open.
func CheckService(ctx context.Context, tx Querier, accountID int64, service string) error {
	p, err := Of(ctx, tx, accountID)
	if err != nil {
		return err
	}
	if Has(p, service) {
		return nil
	}
	return apperr.New(apperr.Forbidden, "«"+serviceTitles[service]+"» در پلن «"+p.Title+"» نیست و از پلن «"+
		MinPlan(service).Title+"» در دسترس است؛ ارتقای پلن را با تیکت به پشتیبانی درخواست کنید").WithCode("plan-service")
}
