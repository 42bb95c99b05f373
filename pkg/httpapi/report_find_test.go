package httpapi_test

import (
	"context"
	"net/url"
	"strconv"
	"testing"

	"github.com/chapar/chapar/pkg/report"
)

// The reports list finds a mobile written any way among the account's sends, with
// that recipient's status in each row, and filters by a piece of the text; another
// account's send with the same number and text never appears. The recipients page
// finds one number the same way.
func TestReportListFindsMobileAndText(t *testing.T) {
	f := newReportFixture(t)
	e := f.e
	ctx := context.Background()
	u, err := e.Accounts.ByUsername(ctx, "mina")
	if err != nil {
		t.Fatal(err)
	}
	var other int64
	if err := e.DB.Pool.QueryRow(ctx, `INSERT INTO sends (account_id, type, sender, text, status, requested, recipients, expanded_at)
		VALUES ($1, 'quick', '3000', 'سلام دنیا', 'done', 1, 1, now()) RETURNING id`, u.AccountID).Scan(&other); err != nil {
		t.Fatal(err)
	}
	if _, err := e.DB.Pool.Exec(ctx, `INSERT INTO recipients (send_id, batch, mobile, operator, parts, cost, status)
		VALUES ($1, 0, '989120000003', 'mci', 1, 190, 2)`, other); err != nil {
		t.Fatal(err)
	}
	list := func(token, query string) ([]report.SendRow, int64) {
		t.Helper()
		var rows []report.SendRow
		r := e.Must(200, "GET", "/v1/api/report/new_list?"+query, nil, token)
		r.Decode(t, &rows)
		return rows, *r.Meta.Total
	}
	for _, m := range []string{"09120000003", "9120000003", "+989120000003", "۰۹۱۲۰۰۰۰۰۰۳", "0912 000 0003"} {
		rows, total := list(f.tokenA, "mobile="+url.QueryEscape(m))
		if total != 2 || len(rows) != 2 || rows[0].ID != f.recent || rows[1].ID != f.older {
			t.Fatalf("mobile %q: %d rows %v", m, total, rows)
		}
		for _, r := range rows {
			if r.Match == nil || r.Match.Mobile != "989120000003" || r.Match.Status != 3 || r.Match.UpdatedAt.IsZero() {
				t.Fatalf("mobile %q: the row's match %+v", m, r.Match)
			}
		}
	}
	if rows, _ := list(f.tokenB, "mobile=09120000003"); len(rows) != 1 || rows[0].ID != other || rows[0].Match.Status != 2 {
		t.Fatalf("the other account's search: %v", rows)
	}
	if rows, total := list(f.tokenA, "mobile=09121234567"); total != 0 || len(rows) != 0 {
		t.Fatalf("a number never sent to: %d", total)
	}
	r := e.Must(422, "GET", "/v1/api/report/new_list?mobile=12ab", nil, f.tokenA)
	if len(r.Meta.Errors["mobile"]) == 0 {
		t.Fatalf("bad mobile: %s", r.Raw)
	}

	if rows, total := list(f.tokenA, "q="+url.QueryEscape("دنیا")); total != 2 || rows[0].ID != f.recent || rows[0].Match != nil {
		t.Fatalf("text: %d %v", total, rows)
	}
	for _, q := range []string{"خداحافظ", "%", "_"} {
		if _, total := list(f.tokenA, "q="+url.QueryEscape(q)); total != 0 {
			t.Fatalf("text %q matched %d sends", q, total)
		}
	}
	if _, total := list(f.tokenA, "q="+url.QueryEscape("دنیا")+"&mobile=09120000099"); total != 0 {
		t.Fatalf("text and a number never sent to: %d", total)
	}

	var recips []report.Recipient
	id := strconv.FormatInt(f.recent, 10)
	e.Must(200, "GET", "/v1/api/report/recipients?id="+id+"&mobile="+url.QueryEscape("+98 912 000 0005"), nil, f.tokenA).Decode(t, &recips)
	if len(recips) != 1 || recips[0].Mobile != "989120000005" {
		t.Fatalf("recipient by mobile: %v", recips)
	}
	r = e.Must(200, "GET", "/v1/api/report/recipients?id="+id+"&mobile=09121234567", nil, f.tokenA)
	if string(r.Data) != "[]" || *r.Meta.Total != 0 {
		t.Fatalf("a number the send did not have: %s", r.Raw)
	}
	e.Must(404, "GET", "/v1/api/report/recipients?id="+id+"&mobile=09120000005", nil, f.tokenB)
}
