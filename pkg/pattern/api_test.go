package pattern_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/chapar/chapar/internal/testing/apitest"
	"github.com/chapar/chapar/jobs"
	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/pattern"
	"github.com/chapar/chapar/pkg/review"
	"github.com/chapar/chapar/pkg/send"
	"github.com/chapar/chapar/pkg/validate"
)

const pw = "Secret@12345"

var pageOne = validate.Paging{Page: 1, Limit: 10}

// shop is a customer account with a sender line and credit.
type shop struct {
	tok   string
	acc   int64
	brand string
}

func newShop(t *testing.T, e *apitest.Env, stok, username, mobile string) shop {
	t.Helper()
	e.Register(username, pw, mobile)
	u, err := e.Accounts.ByUsername(context.Background(), username)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.Deps.Lines.Add(context.Background(), u.AccountID, "3000"+mobile[7:], "service", true); err != nil {
		t.Fatal(err)
	}
	e.Must(200, "POST", fmt.Sprintf("/v1/api/admin/accounts/%d/credit", u.AccountID),
		map[string]any{"amount": 1_000_000, "reason": "آزمون"}, stok)
	return shop{tok: e.Login(username, pw), acc: u.AccountID, brand: "کاربر " + username}
}

func (s shop) draft(kind, text string) map[string]any {
	return map[string]any{"title": "ورود", "kind": kind, "text": s.brand + " " + text,
		"variables": []map[string]any{{"name": "code", "type": "integer", "length": 6}}}
}

func create(t *testing.T, e *apitest.Env, s shop, body map[string]any) pattern.Pattern {
	t.Helper()
	var p pattern.Pattern
	e.Must(201, "POST", "/v1/api/patterns", body, s.tok).Decode(t, &p)
	return p
}

// decide approves or rejects the pending review item of a pattern version.
func decide(t *testing.T, e *apitest.Env, stok string, versionID int64, approve bool, reason string) {
	t.Helper()
	var items []review.Item
	e.Must(200, "GET", "/v1/api/admin/reviews/items?kind=pattern", nil, stok).Decode(t, &items)
	for _, it := range items {
		if it.SubjectID == versionID {
			verb := "reject"
			if approve {
				verb = "approve"
			}
			e.Must(200, "POST", fmt.Sprintf("/v1/api/admin/reviews/%d/%s", it.ID, verb), map[string]any{"reason": reason}, stok)
			return
		}
	}
	t.Fatalf("version %d not in the queue: %+v", versionID, items)
}

func latest(p pattern.Pattern) int64 { return p.Versions[0].ID }

// sendTexts reads what a pattern send will deliver.
func sendTexts(t *testing.T, e *apitest.Env, id int64) (typ string, texts []string, version int64, localID string) {
	t.Helper()
	if err := e.DB.Pool.QueryRow(context.Background(), `SELECT type, texts, coalesce(pattern_version_id, 0), coalesce(local_id, '')
		FROM sends WHERE id = $1`, id).Scan(&typ, &texts, &version, &localID); err != nil {
		t.Fatal(err)
	}
	return typ, texts, version, localID
}

// The rules are enforced over the API with per-field messages; a pattern sends only
// once approved; an edit makes a version in review while the approved one sends;
// a rejection shows its reason and leaves the approved version sending.
func TestPatternReviewAndVersions(t *testing.T) {
	e := apitest.Start(t, nil)
	stok := e.Staff("reviewer", "09120009911")
	a := newShop(t, e, stok, "bakery", "09121230011")

	r := e.Must(422, "POST", "/v1/api/patterns", map[string]any{"title": "x", "text": "کد %code% http://x.ir",
		"variables": []map[string]any{{"name": "code", "type": "integer"}, {"name": "bad name"}}}, a.tok)
	for _, want := range []string{"نام برند", "https://", "«bad name» معتبر نیست"} {
		if !strings.Contains(string(r.Raw), want) {
			t.Errorf("rules: %q missing in %s", want, r.Raw)
		}
	}

	p := create(t, e, a, a.draft("otp", "کد ورود: %code%"))
	if p.Status != pattern.StatusPending || p.Sendable || len(p.Code) != 12 || p.Variables[0].Length != 6 {
		t.Fatalf("created %+v", p)
	}
	body := map[string]any{"code": p.Code, "recipient": "09121234501", "values": map[string]string{"code": "1234"}}
	r = e.Must(422, "POST", "/v1/api/patterns/send", body, a.tok)
	if !strings.Contains(string(r.Raw), pattern.MsgNotApproved) {
		t.Fatalf("pending pattern sent: %s", r.Raw)
	}
	decide(t, e, stok, latest(p), true, "")

	var sent pattern.Sent
	e.Must(201, "POST", "/v1/api/patterns/send", body, a.tok).Decode(t, &sent)
	typ, texts, v1, _ := sendTexts(t, e, sent.ID)
	if typ != send.TypePatternOTP || len(texts) != 1 || texts[0] != a.brand+" کد ورود: 1234" || v1 != latest(p) {
		t.Fatalf("send %s %q v%d", typ, texts, v1)
	}

	// Edit: version 2 waits; sends keep the approved version 1.
	d2 := a.draft("otp", "کد تازه: %code%")
	e.Must(200, "PUT", fmt.Sprintf("/v1/api/patterns/%d", p.ID), d2, a.tok).Decode(t, &p)
	if p.Status != pattern.StatusPending || !p.Sendable || p.Approved.ID != v1 || len(p.Versions) != 2 {
		t.Fatalf("edited %+v", p)
	}
	body["values"] = map[string]string{"code": "5678"}
	e.Must(201, "POST", "/v1/api/patterns/send", body, a.tok).Decode(t, &sent)
	if _, texts, v, _ := sendTexts(t, e, sent.ID); v != v1 || !strings.Contains(texts[0], "کد ورود: 5678") {
		t.Fatalf("during review sent v%d %q", v, texts)
	}

	// The reviewer sees the diff's two sides.
	var rv pattern.VersionReview
	e.Must(200, "GET", fmt.Sprintf("/v1/api/admin/patterns/versions/%d", latest(p)), nil, stok).Decode(t, &rv)
	if rv.Previous == nil || rv.Previous.ID != v1 || !strings.Contains(rv.Version.Text, "کد تازه") || rv.Account != a.brand {
		t.Fatalf("review view %+v", rv)
	}

	decide(t, e, stok, latest(p), false, "متن مبهم است")
	e.Must(200, "GET", fmt.Sprintf("/v1/api/patterns/%d", p.ID), nil, a.tok).Decode(t, &p)
	if p.Status != pattern.StatusRejected || p.Reason != "متن مبهم است" || p.Approved.ID != v1 || p.Versions[0].DecidedBy != "reviewer" {
		t.Fatalf("rejected %+v", p)
	}

	// Version 3 approved: it sends from now on.
	d3 := a.draft("otp", "کد سوم: %code%")
	e.Must(200, "PUT", fmt.Sprintf("/v1/api/patterns/%d", p.ID), d3, a.tok).Decode(t, &p)
	decide(t, e, stok, latest(p), true, "")
	e.Must(201, "POST", "/v1/api/patterns/send", body, a.tok).Decode(t, &sent)
	if _, texts, v, _ := sendTexts(t, e, sent.ID); v != latest(p) || !strings.Contains(texts[0], "کد سوم: 5678") {
		t.Fatalf("after approval sent v%d %q", v, texts)
	}
	var list []pattern.Pattern
	e.Must(200, "GET", "/v1/api/patterns?status=approved&kind=otp&q=سوم", nil, a.tok).Decode(t, &list)
	if len(list) != 1 || list[0].ID != p.ID {
		t.Fatalf("filtered list %+v", list)
	}
	e.Must(200, "GET", "/v1/api/patterns?kind=normal", nil, a.tok).Decode(t, &list)
	if len(list) != 0 {
		t.Fatalf("kind filter %+v", list)
	}
}

// Pattern sends: typed values are checked, a value with a link or a sensitive word
// holds the send (money held, in the review queue), a retried request with the
// same Idempotency-Key is the first send, many recipients get their own texts,
// OTP patterns go on the critical queue and normal ones on the default queue.
func TestPatternSend(t *testing.T) {
	e := apitest.Start(t, nil)
	stok := e.Staff("reviewer", "09120009912")
	a := newShop(t, e, stok, "florist", "09121230021")
	p := create(t, e, a, map[string]any{"title": "سفارش", "kind": "transactional",
		"text":      a.brand + ": سفارش %order% برای %name% ثبت شد",
		"variables": []map[string]any{{"name": "order", "type": "integer", "length": 8}, {"name": "name", "length": 40}}})
	decide(t, e, stok, latest(p), true, "")

	send1 := func(values map[string]string) map[string]any {
		return map[string]any{"code": p.Code, "recipient": "09121234601", "values": values}
	}
	for _, bad := range []map[string]string{{"order": "12x", "name": "علی"}, {"order": "123456789", "name": "علی"},
		{"name": "علی"}, {"order": "1", "name": strings.Repeat("ب", 41)}, {"order": "1", "name": "x", "other": "y"}} {
		e.Must(422, "POST", "/v1/api/patterns/send", send1(bad), a.tok)
	}
	e.Must(422, "POST", "/v1/api/patterns/send", map[string]any{"code": "nope", "recipient": "09121234601"}, a.tok)
	e.Must(422, "POST", "/v1/api/patterns/send", map[string]any{"code": p.Code, "recipient": "123", "values": map[string]string{"order": "1", "name": "x"}}, a.tok)

	// Idempotent retry.
	var first, again pattern.Sent
	good := send1(map[string]string{"order": "۱۲۳", "name": "علی"})
	good["local_id"] = "order-123"
	e.Must(201, "POST", "/v1/api/patterns/send", good, a.tok, "Idempotency-Key", "k1").Decode(t, &first)
	e.Must(200, "POST", "/v1/api/patterns/send", good, a.tok, "Idempotency-Key", "k1").Decode(t, &again)
	if again.ID != first.ID || first.Held || first.Price <= 0 || first.LocalID != "order-123" {
		t.Fatalf("first %+v again %+v", first, again)
	}
	typ, texts, _, local := sendTexts(t, e, first.ID)
	if typ != send.TypePatternTransactional || texts[0] != a.brand+": سفارش 123 برای علی ثبت شد" || local != "order-123" {
		t.Fatalf("stored %s %q %q", typ, texts, local)
	}
	other := send1(map[string]string{"order": "124", "name": "علی"})
	e.Must(422, "POST", "/v1/api/patterns/send", other, a.tok, "Idempotency-Key", "k1")
	if !inQueue(t, e, jobs.QueueCritical, fmt.Sprintf("expand:%d", first.ID)) {
		t.Fatal("transactional pattern send not on the critical queue")
	}

	// Held values.
	for i, v := range []string{"https://evil.ir/x", "کازینو آنلاین", strings.Repeat("ب", 35)} {
		var h pattern.Sent
		e.Must(201, "POST", "/v1/api/patterns/send", send1(map[string]string{"order": fmt.Sprint(i + 1), "name": v}), a.tok).Decode(t, &h)
		if !h.Held || h.Status != send.StatusHeld {
			t.Fatalf("%q not held: %+v", v, h)
		}
	}
	var items []review.Item
	e.Must(200, "GET", "/v1/api/admin/reviews/items?kind=send", nil, stok).Decode(t, &items)
	if len(items) != 3 || !slices.ContainsFunc(items, func(it review.Item) bool { return slices.Contains(it.Reasons, pattern.ReasonValueLink) }) {
		t.Fatalf("held queue %+v", items)
	}

	// Many recipients, each with its own values; a repeated number is sent once.
	var many pattern.Sent
	e.Must(201, "POST", "/v1/api/patterns/send", map[string]any{"code": p.Code, "recipients": []map[string]any{
		{"mobile": "09121234611", "values": map[string]string{"order": "1", "name": "الف"}},
		{"mobile": "09121234612", "values": map[string]string{"order": "2", "name": "ب"}},
		{"mobile": "09121234611", "values": map[string]string{"order": "3", "name": "ج"}},
	}}, a.tok).Decode(t, &many)
	if _, texts, _, _ := sendTexts(t, e, many.ID); len(texts) != 2 || !strings.Contains(texts[1], "سفارش 2 برای ب") {
		t.Fatalf("many %q", texts)
	}
	r := e.Must(422, "POST", "/v1/api/patterns/send", map[string]any{"code": p.Code, "recipients": []map[string]any{
		{"mobile": "09121234611", "values": map[string]string{"order": "1", "name": "الف"}},
		{"mobile": "09121234612", "values": map[string]string{"order": "x", "name": "ب"}}}}, a.tok)
	if !strings.Contains(string(r.Raw), "recipients.1") {
		t.Fatalf("row not named: %s", r.Raw)
	}

	// A normal pattern goes on the default queue.
	n := create(t, e, a, a.draft("normal", "تخفیف %code%"))
	decide(t, e, stok, latest(n), true, "")
	var ns pattern.Sent
	e.Must(201, "POST", "/v1/api/patterns/send", map[string]any{"code": n.Code, "recipient": "09121234621",
		"values": map[string]string{"code": "10"}}, a.tok).Decode(t, &ns)
	if !inQueue(t, e, jobs.QueueDefault, fmt.Sprintf("expand:%d", ns.ID)) {
		t.Fatal("normal pattern send not on the default queue")
	}
	if typ, _, _, _ := sendTexts(t, e, ns.ID); typ != send.TypePattern {
		t.Fatalf("normal pattern sent as %s", typ)
	}
}

func inQueue(t *testing.T, e *apitest.Env, queue, taskID string) bool {
	t.Helper()
	_, err := e.Inspector.GetTaskInfo(queue, taskID)
	return err == nil
}

// Another account neither sees nor sends nor edits my pattern; the systemic
// patterns are everyone's to read and staff's to define; a colleague sees only the
// shared patterns and their own.
func TestPatternIsolationSystemicShared(t *testing.T) {
	e := apitest.Start(t, nil)
	stok := e.Staff("reviewer", "09120009913")
	a := newShop(t, e, stok, "grocer", "09121230031")
	b := newShop(t, e, stok, "butcher", "09121230032")
	p := create(t, e, a, a.draft("otp", "کد %code%"))
	decide(t, e, stok, latest(p), true, "")

	e.Must(404, "GET", fmt.Sprintf("/v1/api/patterns/%d", p.ID), nil, b.tok)
	e.Must(404, "PUT", fmt.Sprintf("/v1/api/patterns/%d", p.ID), b.draft("otp", "کد %code%"), b.tok)
	r := e.Must(422, "POST", "/v1/api/patterns/send", map[string]any{"code": p.Code, "recipient": "09121234701",
		"values": map[string]string{"code": "1"}}, b.tok)
	if !strings.Contains(string(r.Raw), pattern.MsgCodeUnknown) {
		t.Fatalf("another account's code: %s", r.Raw)
	}
	var list []pattern.Pattern
	e.Must(200, "GET", "/v1/api/patterns", nil, b.tok).Decode(t, &list)
	if len(list) != 0 {
		t.Fatalf("b sees %+v", list)
	}

	// Systemic: staff define, customers read (not edit), and may send.
	var sys pattern.Pattern
	e.Must(201, "POST", "/v1/api/admin/patterns/systemic", map[string]any{"title": "یادآوری", "kind": "transactional",
		"text": "نوبت شما %date% است", "variables": []map[string]any{{"name": "date", "length": 10}}}, stok).Decode(t, &sys)
	e.Must(404, "POST", "/v1/api/admin/patterns/systemic", map[string]any{}, a.tok)
	e.Must(200, "GET", "/v1/api/patterns/systemic", nil, b.tok).Decode(t, &list)
	if len(list) != 2 || !slices.ContainsFunc(list, func(x pattern.Pattern) bool { return x.Code == "login-otp" }) {
		t.Fatalf("systemic list %+v", list)
	}
	e.Must(200, "GET", fmt.Sprintf("/v1/api/patterns/systemic/%d", sys.ID), nil, b.tok)
	e.Must(404, "GET", fmt.Sprintf("/v1/api/patterns/systemic/%d", p.ID), nil, a.tok)
	e.Must(403, "PUT", fmt.Sprintf("/v1/api/patterns/%d", sys.ID), b.draft("otp", "کد %code%"), b.tok)
	e.Must(201, "POST", "/v1/api/patterns/send", map[string]any{"code": sys.Code, "recipient": "09121234702",
		"values": map[string]string{"date": "۱۴۰۵/۰۱/۰۱"}}, b.tok)

	// Shared: a colleague (not the owner, not the creator) sees only shared patterns.
	shared := a.draft("normal", "کد %code%")
	shared["shared"] = true
	sp := create(t, e, a, shared)
	colleague := acl.Identity{AccountID: a.acc, UserID: 987654, Permissions: []acl.Permission{acl.SendCreate}}
	got, _, err := e.Deps.Patterns.List(context.Background(), colleague, pattern.Filter{Page: pageOne})
	if err != nil || len(got) != 1 || got[0].ID != sp.ID {
		t.Fatalf("colleague sees %+v (%v)", got, err)
	}
	if _, err := e.Deps.Patterns.Get(context.Background(), colleague, p.ID); err == nil {
		t.Fatal("colleague reads an unshared pattern")
	}
	if _, _, err := e.Deps.Patterns.Send(context.Background(), colleague, pattern.SendRequest{Code: p.Code,
		Recipient: "09121234703", Values: pattern.Values{"code": "1"}}, "", ""); err == nil {
		t.Fatal("colleague sends an unshared pattern")
	}
}

// An integration lists its patterns and sends one with an API key (both are in
// the public set): the Idempotency-Key retry answers the first send once, and the
// one message's status is read by local_id and mobile.
func TestPatternSendWithKey(t *testing.T) {
	e := apitest.Start(t, nil)
	stok := e.Staff("reviewer", "09120009913")
	a := newShop(t, e, stok, "keyshop", "09121230031")
	p := create(t, e, a, a.draft("otp", "کد ورود %code%"))
	decide(t, e, stok, latest(p), true, "")
	var otp struct {
		OTPToken string `json:"otp_token"`
	}
	e.Must(200, "POST", "/v1/api/acl/api_key/otp", nil, a.tok).Decode(t, &otp)
	var key struct {
		Secret string `json:"secret"`
	}
	e.Must(201, "POST", "/v1/api/acl/api_key/create", map[string]any{"title": "ورود", "otp_token": otp.OTPToken,
		"code": e.LastCode("989121230031"), "scopes": []acl.Permission{acl.SendCreate, acl.ReportView}}, a.tok).Decode(t, &key)

	var list []pattern.Pattern
	e.Must(200, "GET", "/v1/api/patterns?status=approved", nil, key.Secret).Decode(t, &list)
	if len(list) != 1 || list[0].Code != p.Code || !list[0].Sendable {
		t.Fatalf("patterns %+v", list)
	}
	body := map[string]any{"code": p.Code, "recipient": "09121234631", "values": map[string]string{"code": "482913"}, "local_id": "login-1"}
	var first, again pattern.Sent
	e.Must(201, "POST", "/v1/api/patterns/send", body, key.Secret, "Idempotency-Key", "kk1").Decode(t, &first)
	e.Must(200, "POST", "/v1/api/patterns/send", body, key.Secret, "Idempotency-Key", "kk1").Decode(t, &again)
	if first.ID == 0 || again.ID != first.ID || first.Type != send.TypePatternOTP || first.LocalID != "login-1" {
		t.Fatalf("first %+v again %+v", first, again)
	}
	var st struct {
		ID        int64 `json:"id"`
		Recipient struct {
			Mobile string `json:"mobile"`
		} `json:"recipient"`
	}
	e.Must(200, "GET", "/v1/api/send/status?local_id=login-1&mobile=09121234631", nil, key.Secret).Decode(t, &st)
	if st.ID != first.ID || st.Recipient.Mobile != "989121234631" {
		t.Fatalf("status %+v", st)
	}
}

// TestPatternKindChangeIsReviewed (issue 38 item 19): switching an approved normal
// pattern to OTP (the priority lane) makes a version in review; until staff approve
// it the pattern keeps sending as normal on the default queues, and the reviewer is
// told the kind changes.
func TestPatternKindChangeIsReviewed(t *testing.T) {
	e := apitest.Start(t, nil)
	stok := e.Staff("kindreviewer", "09120009931")
	a := newShop(t, e, stok, "kindshop", "09121230031")
	p := create(t, e, a, a.draft("normal", "کد خرید: %code%"))
	decide(t, e, stok, latest(p), true, "")
	v1 := latest(p)

	e.Must(200, "PUT", fmt.Sprintf("/v1/api/patterns/%d", p.ID), a.draft("otp", "کد خرید: %code%"), a.tok).Decode(t, &p)
	if p.Status != pattern.StatusPending || p.Approved == nil || p.Approved.Kind != pattern.KindNormal ||
		p.Versions[0].Kind != pattern.KindOTP || p.SMSType != send.TypePattern {
		t.Fatalf("kind change not in review: %+v", p)
	}
	body := map[string]any{"code": p.Code, "recipient": "09121234531", "values": map[string]string{"code": "4321"}}
	var sent pattern.Sent
	e.Must(201, "POST", "/v1/api/patterns/send", body, a.tok).Decode(t, &sent)
	if typ, _, v, _ := sendTexts(t, e, sent.ID); typ != send.TypePattern || v != v1 || sent.Type != send.TypePattern {
		t.Fatalf("an unreviewed kind change sent as %s (version %d, want %d)", typ, v, v1)
	}
	var items []review.Item
	e.Must(200, "GET", "/v1/api/admin/reviews/items?kind=pattern", nil, stok).Decode(t, &items)
	found := false
	for _, it := range items {
		found = found || it.SubjectID == latest(p) && slices.Contains(it.Reasons, pattern.ReasonKindChanged+"normal ← otp")
	}
	if !found {
		t.Fatalf("the reviewer is not told the kind changes: %+v", items)
	}
	decide(t, e, stok, latest(p), true, "")
	e.Must(201, "POST", "/v1/api/patterns/send", body, a.tok).Decode(t, &sent)
	if typ, _, _, _ := sendTexts(t, e, sent.ID); typ != send.TypePatternOTP {
		t.Fatalf("approved kind change sent as %s", typ)
	}
}

// TestPatternValuesCannotAddLinks (issue 38 item 8): a value carrying a tracked
// link placeholder — another account's link, or the sender's own — is refused with
// a Persian message naming the variable; links come only from the reviewed text.
func TestPatternValuesCannotAddLinks(t *testing.T) {
	e := apitest.Start(t, nil)
	stok := e.Staff("valreviewer", "09120009971")
	a := newShop(t, e, stok, "valshop", "09121230071")
	p := create(t, e, a, a.draft("normal", "کد: %code%"))
	decide(t, e, stok, latest(p), true, "")
	p = create(t, e, a, map[string]any{"title": "پیام", "kind": "normal", "text": a.brand + " سلام %name%",
		"variables": []map[string]any{{"name": "name", "type": "string", "length": 20}}})
	decide(t, e, stok, latest(p), true, "")
	for _, v := range []string{"{link:1}", "علی {link:77}"} {
		r := e.Must(422, "POST", "/v1/api/patterns/send", map[string]any{"code": p.Code, "recipient": "09121234571",
			"values": map[string]string{"name": v}}, a.tok)
		if !strings.Contains(string(r.Raw), strings.Replace(pattern.MsgValuePlaceholder, "%s", "name", 1)) {
			t.Fatalf("value %q: %s", v, r.Raw)
		}
	}
}
