package httpapi_test

import (
	"context"
	"strings"
	"testing"

	"github.com/chapar/chapar/internal/testing/apitest"
	"github.com/chapar/chapar/pkg/acl"
)

// setPlan moves an account to a plan, as staff do after an upgrade ticket.
func setPlan(t *testing.T, e *apitest.Env, accountID int64, plan string) {
	t.Helper()
	if _, err := e.DB.Pool.Exec(context.Background(), `UPDATE accounts SET plan = $2 WHERE id = $1`, accountID, plan); err != nil {
		t.Fatal(err)
	}
}

// planRefused checks a 403 with the plan's code and a Persian message naming the plan.
func planRefused(t *testing.T, what string, r apitest.Response, code string) {
	t.Helper()
	if r.Status != 403 || r.Meta.MessageCode != code || !strings.Contains(r.Meta.Message, "«پایه»") {
		t.Fatalf("%s on the basic plan: %d %s", what, r.Status, r.Raw)
	}
}

// TestPlanLimitsEnforced: a basic-plan account (2 colleagues, 2 API keys, no
// secretary or keyword reader) is refused the third colleague, the reactivation
// that would exceed the count, the third API key and any reader, with a Persian
// 403 (plan-limit, plan-service); on the pro plan the same requests pass.
func TestPlanLimitsEnforced(t *testing.T) {
	e := keyEnv(t, nil)
	tok, acct := owner(t, e, "planowner", "09121260000")
	role := makeRole(t, e, tok, "پشتیبان", acl.ReportView)
	first := inviteColleague(t, e, tok, "09121260001", role)
	inviteColleague(t, e, tok, "09121260002", role)
	third := map[string]any{"name": "همکار سوم", "mobile": "09121260003", "national_id": nationalID("001260003"),
		"role_id": role}
	planRefused(t, "a third colleague", e.Do("POST", "/v1/api/user/partner/create", third, tok), "plan-limit")
	e.Must(200, "POST", "/v1/api/user/partner/deactive", map[string]any{"id": first.ID}, tok)
	e.Must(201, "POST", "/v1/api/user/partner/create", third, tok)
	planRefused(t, "reactivating a colleague over the count",
		e.Do("POST", "/v1/api/user/partner/active", map[string]any{"id": first.ID}, tok), "plan-limit")

	newKey(t, e, tok, "09121260000", walletKey())
	newKey(t, e, tok, "09121260000", walletKey())
	planRefused(t, "a third API key's code", e.Do("POST", "/v1/api/acl/api_key/otp", nil, tok), "plan-limit")
	planRefused(t, "a third API key", e.Do("POST", "/v1/api/acl/api_key/create", walletKey(), tok), "plan-limit")

	reader := map[string]any{"kind": "secretary", "title": "منشی", "line": "3000", "keywords": []string{"سلام"}, "reply": "درود"}
	planRefused(t, "a secretary", e.Do("POST", "/v1/api/phonebooks/advanced-services/advanced-reader", reader, tok), "plan-service")
	reader["kind"] = "poll"
	planRefused(t, "a keyword reader", e.Do("POST", "/v1/api/phonebooks/advanced-services/advanced-reader", reader, tok), "plan-service")

	setPlan(t, e, acct, "pro")
	e.Must(200, "POST", "/v1/api/user/partner/active", map[string]any{"id": first.ID}, tok)
	newKey(t, e, tok, "09121260000", walletKey())
	if r := e.Do("POST", "/v1/api/phonebooks/advanced-services/advanced-reader", reader, tok); r.Status == 403 {
		t.Fatalf("a reader on the pro plan: %d %s", r.Status, r.Raw)
	}
}

// TestLocationSendNeedsPlan: regional and location sends (the number bank's
// audiences) come with the enterprise plan: a pro account's quote and send of one
// are refused with a Persian 403 plan-service before anything is counted.
func TestLocationSendNeedsPlan(t *testing.T) {
	e := apitest.Start(t, nil)
	tok, acct := owner(t, e, "regionless", "09121260010")
	setPlan(t, e, acct, "pro")
	body := map[string]any{"type": "city_province", "text": "حراج", "target": map[string]any{"provinces": []int{28}}}
	for _, path := range []string{"/v1/api/send/calculate-price", "/v1/api/send"} {
		r := e.Do("POST", path, body, tok)
		if r.Status != 403 || r.Meta.MessageCode != "plan-service" || !strings.Contains(r.Meta.Message, "«سازمانی»") {
			t.Fatalf("%s on the pro plan: %d %s", path, r.Status, r.Raw)
		}
	}
}
