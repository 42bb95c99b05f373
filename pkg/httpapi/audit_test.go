package httpapi_test

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	"github.com/chapar/chapar/internal/testing/apitest"
	"github.com/chapar/chapar/pkg/auditlog"
	"github.com/chapar/chapar/pkg/send"
	"github.com/chapar/chapar/pkg/spreadsheet"
)

const auditAPI = "/v1/api/user/audit"

// auditPage reads one page of the audit log with the query q.
func auditPage(t *testing.T, e *apitest.Env, token string, q url.Values) ([]auditlog.Row, int64) {
	t.Helper()
	r := e.Must(200, "GET", auditAPI+"?"+q.Encode(), nil, token)
	var rows []auditlog.Row
	r.Decode(t, &rows)
	if r.Meta.Total == nil {
		t.Fatalf("no total in %s", r.Raw)
	}
	return rows, *r.Meta.Total
}

// findAction is the newest entry of action (by the user, when not 0).
func findAction(rows []auditlog.Row, action string, user int64) *auditlog.Row {
	for i := range rows {
		if rows[i].Action == action && (user == 0 || rows[i].UserID != nil && *rows[i].UserID == user) {
			return &rows[i]
		}
	}
	return nil
}

// auditColleague puts a new user into the account as a colleague whose role may
// manage phonebooks and nothing else, and logs them in.
func auditColleague(t *testing.T, e *apitest.Env, accountID int64, username, mobile string) (string, int64) {
	t.Helper()
	ctx := context.Background()
	if _, err := e.DB.Pool.Exec(ctx, `INSERT INTO roles (account_id, name, permissions) VALUES ($1, 'contacts', '{phonebook.manage}')`, accountID); err != nil {
		t.Fatal(err)
	}
	e.Register(username, pw, mobile)
	var id int64
	if err := e.DB.Pool.QueryRow(ctx, `UPDATE users SET account_id = $1, is_owner = false,
		role_id = (SELECT id FROM roles WHERE account_id = $1 AND name = 'contacts') WHERE username = $2 RETURNING id`,
		accountID, username).Scan(&id); err != nil {
		t.Fatal(err)
	}
	return e.Login(username, pw), id
}

// The owner's audit log shows a login, a failed login, a send and its stop, and
// colleagues' phonebook changes, each with the user, IP and browser; filters narrow
// it; colleagues and other accounts see none of it.
func TestAuditLogRecordsActions(t *testing.T) {
	e := apitest.Start(t, nil)
	owner, acct := lineOwner(t, e, "audowner", "09121116001", 1_000_000)
	e.Must(401, "POST", "/v1/api/acl/auth/login", map[string]string{"username": "audowner", "password": "wrong-Pass1"}, "")
	ua := "AuditTest/1.0"
	var a send.Accepted
	e.Must(201, "POST", "/v1/api/send", map[string]any{"text": "سلام", "numbers": []string{"09121234001"},
		"send_at": time.Now().Add(2 * time.Hour).Format(time.RFC3339)}, owner, "User-Agent", ua).Decode(t, &a)
	e.Must(200, "POST", "/v1/api/send/cancel", map[string]any{"id": a.ID}, owner, "User-Agent", ua)
	colleague, colleagueID := auditColleague(t, e, acct, "audcolleague", "09121116002")
	e.Must(201, "POST", pbAPI, map[string]any{"name": "مشتریان"}, colleague, "User-Agent", ua)

	rows, total := auditPage(t, e, owner, url.Values{"limit": {"100"}})
	if total != int64(len(rows)) {
		t.Fatalf("total %d, rows %d", total, len(rows))
	}
	sendID := strconv.FormatInt(a.ID, 10)
	u, err := e.Accounts.ByUsername(context.Background(), "audowner")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		action string
		user   int64
		target string
	}{
		{"auth.login", u.ID, ""}, {"auth.login_failed", u.ID, ""},
		{"send.create", u.ID, sendID}, {"send.stop", u.ID, sendID},
		{"phonebook.create", colleagueID, ""},
	} {
		r := findAction(rows, c.action, c.user)
		if r == nil {
			t.Fatalf("no %s entry in %+v", c.action, rows)
		}
		if r.UserID == nil || *r.UserID != c.user || r.UserName == "" || r.IP != "127.0.0.1" || r.ActionTitle == c.action {
			t.Errorf("%s: user %v %q ip %q title %q", c.action, r.UserID, r.UserName, r.IP, r.ActionTitle)
		}
		if c.target != "" && (r.Target != c.target || r.TargetType != "send" || r.UserAgent != ua) {
			t.Errorf("%s: target %s/%s ua %q", c.action, r.TargetType, r.Target, r.UserAgent)
		}
	}

	// Filters: action, user, Tehran dates as the panel sends them.
	stops, n := auditPage(t, e, owner, url.Values{"action": {"send.stop"}})
	if n != 1 || len(stops) != 1 || !strings.Contains(string(stops[0].Details), `"from"`) {
		t.Fatalf("action filter: %d %+v", n, stops)
	}
	mine, _ := auditPage(t, e, owner, url.Values{"user_id": {strconv.FormatInt(colleagueID, 10)}})
	for _, r := range mine {
		if r.UserID == nil || *r.UserID != colleagueID {
			t.Fatalf("user filter let through %+v", r)
		}
	}
	if findAction(mine, "phonebook.create", 0) == nil {
		t.Fatalf("user filter lost the colleague's change: %+v", mine)
	}
	tehran, _ := time.LoadLocation("Asia/Tehran")
	today := time.Now().In(tehran).Format("2006-01-02")
	tomorrow := time.Now().In(tehran).AddDate(0, 0, 1).Format("2006-01-02")
	if _, n := auditPage(t, e, owner, url.Values{"date_from": {today}, "date_to": {today}}); n != total {
		t.Fatalf("today's range: %d of %d", n, total)
	}
	if _, n := auditPage(t, e, owner, url.Values{"date_from": {tomorrow}}); n != 0 {
		t.Fatalf("tomorrow onwards: %d", n)
	}
	wantField(t, e.Do("GET", auditAPI+"?user_id=abc", nil, owner), "user_id", "کاربر انتخاب‌شده معتبر نیست")
	wantField(t, e.Do("GET", auditAPI+"?date_from="+tomorrow+"&date_to="+today, nil, owner), "date_from",
		"تاریخ شروع باید پیش از تاریخ پایان باشد")

	// Owner-only: a colleague is refused; another account sees none of these rows.
	if r := e.Do("GET", auditAPI, nil, colleague); r.Status != 403 || r.Meta.MessageCode != "403-8" {
		t.Fatalf("colleague: %d %s", r.Status, r.Raw)
	}
	e.Register("audother", pw, "09121116003")
	other := e.Login("audother", pw)
	theirs, _ := auditPage(t, e, other, url.Values{"limit": {"100"}})
	for _, r := range theirs {
		if r.Target == sendID || r.Action == "phonebook.create" || r.UserID != nil && (*r.UserID == u.ID || *r.UserID == colleagueID) {
			t.Fatalf("another account sees %+v", r)
		}
	}
	if _, n := auditPage(t, e, other, url.Values{"user_id": {strconv.FormatInt(colleagueID, 10)}}); n != 0 {
		t.Fatalf("another account filters by a foreign user: %d rows", n)
	}
}

// The export is an Excel file of the filtered log, Persian action names and Jalali
// dates included.
func TestAuditLogExport(t *testing.T) {
	e := apitest.Start(t, nil)
	owner, _ := lineOwner(t, e, "audexport", "09121116011", 1_000_000)
	e.Must(201, "POST", pbAPI, map[string]any{"name": "دفترچه"}, owner)
	get := func(q string) (*http.Response, []byte) {
		req, _ := http.NewRequest("GET", e.URL+auditAPI+"/export?"+q, nil)
		req.Header.Set("Authorization", "Bearer "+owner)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		body, _ := io.ReadAll(res.Body)
		return res, body
	}
	res, body := get("action=phonebook.create")
	if res.StatusCode != 200 || res.Header.Get("Content-Type") != spreadsheet.ContentType {
		t.Fatalf("export: %d %s", res.StatusCode, body)
	}
	x, err := excelize.OpenReader(bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	rows, err := x.GetRows("گزارش فعالیت‌ها")
	if err != nil || len(rows) != 2 {
		t.Fatalf("rows %v %v", rows, err)
	}
	if rows[1][4] != "ایجاد دفترچه تلفن" || rows[1][5] != "phonebook.create" || !strings.HasPrefix(rows[1][0], "14") ||
		!strings.Contains(rows[1][9], "دفترچه") {
		t.Fatalf("row %q", rows[1])
	}
	if res, body := get("date_from=bad"); res.StatusCode != 422 {
		t.Fatalf("bad date: %d %s", res.StatusCode, body)
	}
}

// The log is append-only in the database: an UPDATE, a DELETE or a TRUNCATE of
// audit_log is refused, and deleting the account leaves its entries.
func TestAuditLogAppendOnly(t *testing.T) {
	e := apitest.Start(t, nil)
	e.Register("audappend", pw, "09121116021")
	e.Login("audappend", pw)
	ctx := context.Background()
	u, err := e.Accounts.ByUsername(ctx, "audappend")
	if err != nil {
		t.Fatal(err)
	}
	acct := u.AccountID
	for _, sql := range []string{
		`UPDATE audit_log SET action = 'nothing' WHERE account_id = $1`,
		`DELETE FROM audit_log WHERE account_id = $1`,
		`TRUNCATE audit_log`,
	} {
		args := []any{}
		if strings.Contains(sql, "$1") {
			args = append(args, acct)
		}
		if _, err := e.DB.Pool.Exec(ctx, sql, args...); err == nil || !strings.Contains(err.Error(), "append-only") {
			t.Fatalf("%s: %v", sql, err)
		}
	}
	var n int
	if err := e.DB.Pool.QueryRow(ctx, `SELECT count(*) FROM audit_log WHERE account_id = $1 AND action = 'auth.login'`, acct).Scan(&n); err != nil || n != 1 {
		t.Fatalf("entries after the refused changes: %d %v", n, err)
	}
}

// Changes without an entry before the audit work now leave one each, with the
// state before and after: the default line, two-step login, a campaign's life, a
// phonebook's rename and a send's pause and resume.
func TestAuditLogRecordsChanges(t *testing.T) {
	e := apitest.Start(t, nil)
	owner, acct := lineOwner(t, e, "audchanges", "09121116031", 1_000_000)
	ctx := context.Background()
	var adv int64
	if err := e.DB.Pool.QueryRow(ctx, `SELECT id FROM lines WHERE account_id = $1 AND number = '50004040'`, acct).Scan(&adv); err != nil {
		t.Fatal(err)
	}
	e.Must(200, "POST", "/v1/api/numbers/defaults/upsert", map[string]any{"id": adv}, owner)
	e.Must(200, "POST", "/v1/api/user/2fa/disable", map[string]any{"password": pw}, owner)
	e.Must(200, "POST", "/v1/api/user/2fa/enable", map[string]any{"method": "sms"}, owner)
	in := map[string]any{"title": "یادآوری", "type": "quick", "text": "سلام", "numbers": []string{"09121234501"},
		"schedule": map[string]any{"kind": "cron", "cron": "0 9 * * *"}}
	var c struct{ ID int64 }
	e.Must(201, "POST", "/v1/api/send/campaigns", in, owner).Decode(t, &c)
	e.Must(200, "POST", "/v1/api/send/campaigns/toggle", map[string]any{"id": c.ID, "enabled": false}, owner)
	e.Must(200, "POST", "/v1/api/send/campaigns/delete", map[string]any{"id": c.ID}, owner)

	var pb struct{ ID int64 }
	e.Must(201, "POST", pbAPI, map[string]any{"name": "قدیم"}, owner).Decode(t, &pb)
	e.Must(200, "POST", pbAPI+"/update", map[string]any{"id": pb.ID, "name": "جدید"}, owner)

	var a send.Accepted
	e.Must(201, "POST", "/v1/api/send", map[string]any{"text": "سلام", "numbers": []string{"09121234002"}}, owner).Decode(t, &a)
	e.Must(200, "POST", "/v1/api/send/pause", map[string]any{"id": a.ID}, owner)
	e.Must(200, "POST", "/v1/api/send/resume", map[string]any{"id": a.ID}, owner)

	rows, _ := auditPage(t, e, owner, url.Values{"limit": {"100"}})
	for action, change := range map[string]string{"send.pause": `"to":"paused"`, "send.resume": `"from":"paused"`} {
		if r := findAction(rows, action, 0); r == nil || r.Target != strconv.FormatInt(a.ID, 10) || !strings.Contains(string(r.Details), change) {
			t.Errorf("%s: %+v", action, r)
		}
	}
	want := map[string][2]string{
		"phonebook.update":     {`"name": "قدیم"`, `"name": "جدید"`},
		"line.default":         {`"30004040"`, `"50004040"`},
		"auth.two_step_enable": {`"on": false`, `"on": true`},
		"campaign.toggle":      {`"enabled": true`, `"enabled": false`},
		"campaign.delete":      {`"title": "یادآوری"`, ``},
		"campaign.create":      {``, `"title": "یادآوری"`},
	}
	for action, ba := range want {
		r := findAction(rows, action, 0)
		if r == nil {
			t.Fatalf("no %s entry", action)
		}
		before, after := strings.ReplaceAll(string(r.Before), `":`, `": `), strings.ReplaceAll(string(r.After), `":`, `": `)
		if !strings.Contains(before, ba[0]) || !strings.Contains(after, ba[1]) || r.UserID == nil || r.IP == "" {
			t.Errorf("%s: before %s after %s user %v ip %q", action, r.Before, r.After, r.UserID, r.IP)
		}
	}
}
