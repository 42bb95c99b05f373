package httpapi_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"io"
	"mime/multipart"
	"net/http"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/chapar/chapar/pkg/payment/offline"
	"github.com/chapar/chapar/pkg/review"
)

// pngReceipt is a real 1×1 PNG.
var pngReceipt, _ = base64.StdEncoding.DecodeString("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==")

const (
	goodCard  = "6037991234567893"
	goodSheba = "IR050170000000123456789012"
)

// offlineForm is a report's multipart body and its content type.
func offlineForm(t *testing.T, fields map[string]string, name string, receipt []byte) (string, string) {
	t.Helper()
	var b bytes.Buffer
	w := multipart.NewWriter(&b)
	for k, v := range fields {
		_ = w.WriteField(k, v)
	}
	if receipt != nil {
		fw, err := w.CreateFormFile("receipt", name)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = fw.Write(receipt)
	}
	_ = w.Close()
	return b.String(), w.FormDataContentType()
}

// report sends a card-to-card (or bank) report and answers the status and body.
func (p *payEnv) report(method string, fields map[string]string, name string, receipt []byte) (int, []byte, offline.Payment) {
	p.t.Helper()
	body, ctype := offlineForm(p.t, fields, name, receipt)
	path := "/v1/api/payment/offline/card-to-card-create"
	if method == offline.Bank {
		path = "/v1/api/payment/offline/bank-pay-create"
	}
	r := p.Do("POST", path, body, p.token, "Content-Type", ctype)
	var out offline.Payment
	if r.Status == 201 {
		r.Decode(p.t, &out)
	}
	return r.Status, r.Raw, out
}

func cardFields(amount, tracking string) map[string]string {
	return map[string]string{"amount": amount, "card_number": goodCard, "tracking_number": tracking,
		"transferred_at": time.Now().Add(-time.Hour).Format(time.RFC3339)}
}

// pendingItem is the review item of an offline payment.
func (p *payEnv) pendingItem(stok string, subject int64) review.Item {
	p.t.Helper()
	var items []review.Item
	p.Must(200, "GET", "/v1/api/admin/reviews/items?kind="+offline.Kind, nil, stok).Decode(p.t, &items)
	for _, it := range items {
		if it.SubjectID == subject {
			return it
		}
	}
	p.t.Fatalf("offline payment %d not in the queue: %+v", subject, items)
	return review.Item{}
}

func (p *payEnv) myOffline() []offline.Payment {
	p.t.Helper()
	var rows []offline.Payment
	p.Must(200, "GET", "/v1/api/payment/offline/list", nil, p.token).Decode(p.t, &rows)
	return rows
}

// A card-to-card report waits for review; staff see its details and receipt and
// approve it: the wallet gets the amount less 10% tax, once, and the customer's
// list shows it approved. Another customer sees none of it.
func TestOfflineCardToCardApproved(t *testing.T) {
	p := newPayEnv(t, "offcard", "09121118001")
	stok := p.Staff("offstaff", "09121118901")
	code, raw, op := p.report(offline.Card, cardFields("۲٬۰۰۰٬۰۰۰", "123456789"), "رسید.png", pngReceipt)
	if code != 201 || op.Amount != 2_000_000 || op.Tax != 200_000 || op.Credit != 1_800_000 || op.State != offline.Pending {
		t.Fatalf("create %d %s", code, raw)
	}
	if b, n := p.money(); b != 0 || n != 0 {
		t.Fatalf("credited before review: %d in %d rows", b, n)
	}
	it := p.pendingItem(stok, op.ID)
	var detail offline.Payment
	p.Must(200, "GET", "/v1/api/admin/offline-payments/"+strconv.FormatInt(op.ID, 10), nil, stok).Decode(t, &detail)
	if detail.Source != goodCard || detail.TrackingNumber != "123456789" || detail.ReceiptType != "image/png" {
		t.Fatalf("staff detail %+v", detail)
	}
	req, _ := http.NewRequest("GET", p.URL+"/v1/api/admin/offline-payments/"+strconv.FormatInt(op.ID, 10)+"/receipt", nil)
	req.Header.Set("Authorization", "Bearer "+stok)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || !bytes.Equal(got, pngReceipt) || res.Header.Get("Content-Type") != "image/png" {
		t.Fatalf("receipt %d %q", res.StatusCode, res.Header.Get("Content-Type"))
	}
	p.Must(404, "GET", "/v1/api/admin/offline-payments/"+strconv.FormatInt(op.ID, 10)+"/receipt", nil, p.token)

	p.Must(200, "POST", "/v1/api/admin/reviews/"+strconv.FormatInt(it.ID, 10)+"/approve", map[string]any{}, stok)
	p.Must(409, "POST", "/v1/api/admin/reviews/"+strconv.FormatInt(it.ID, 10)+"/approve", map[string]any{}, stok)
	if b, n := p.money(); b != 1_800_000 || n != 1 {
		t.Fatalf("balance %d in %d rows, want 1800000 in 1", b, n)
	}
	var ref string
	if err := p.DB.Pool.QueryRow(context.Background(), `SELECT ref FROM ledger WHERE account_id = $1`, p.acct).Scan(&ref); err != nil ||
		ref != "offline:"+strconv.FormatInt(op.ID, 10)+":credit" {
		t.Fatalf("ledger ref %q %v", ref, err)
	}
	if rows := p.myOffline(); len(rows) != 1 || rows[0].State != offline.Approved {
		t.Fatalf("my offline payments %+v", rows)
	}
	p.Register("offother", pw, "09121118002")
	other := p.Login("offother", pw)
	var theirs []offline.Payment
	p.Must(200, "GET", "/v1/api/payment/offline/list", nil, other).Decode(t, &theirs)
	if len(theirs) != 0 {
		t.Fatalf("another account sees %+v", theirs)
	}
}

// A rejected bank transfer credits nothing and the customer sees the reason.
func TestOfflineBankRejected(t *testing.T) {
	p := newPayEnv(t, "offbank", "09121118003")
	stok := p.Staff("offstaff2", "09121118902")
	code, raw, op := p.report(offline.Bank, map[string]string{"amount": "5000000", "sheba": goodSheba,
		"tracking_number": "98765", "transferred_at": time.Now().Add(-48 * time.Hour).Format(time.RFC3339)}, "r.png", pngReceipt)
	if code != 201 || op.Tax != 0 || op.Credit != 5_000_000 {
		t.Fatalf("create %d %s", code, raw)
	}
	it := p.pendingItem(stok, op.ID)
	p.Must(422, "POST", "/v1/api/admin/reviews/"+strconv.FormatInt(it.ID, 10)+"/reject", map[string]any{}, stok)
	reason := "مبلغ به حساب واریز نشده است"
	p.Must(200, "POST", "/v1/api/admin/reviews/"+strconv.FormatInt(it.ID, 10)+"/reject", map[string]any{"reason": reason}, stok)
	if b, n := p.money(); b != 0 || n != 0 {
		t.Fatalf("rejected report credited %d in %d rows", b, n)
	}
	if rows := p.myOffline(); len(rows) != 1 || rows[0].State != offline.Rejected || rows[0].Reason != reason {
		t.Fatalf("my offline payments %+v", rows)
	}
	// A rejected report's tracking number may be reported again.
	if code, raw, _ := p.report(offline.Bank, map[string]string{"amount": "5000000", "sheba": goodSheba,
		"tracking_number": "98765", "transferred_at": time.Now().Format(time.RFC3339)}, "r.png", pngReceipt); code != 201 {
		t.Fatalf("report again after rejection: %d %s", code, raw)
	}
}

// Bad reports are refused with the spec's Persian texts and store nothing.
func TestOfflineRefused(t *testing.T) {
	p := newPayEnv(t, "offbad", "09121118004")
	bad := cardFields("2000000", "11112222")
	bad["card_number"] = "6037991234567894"
	cases := []struct {
		method, field, msg string
		fields             map[string]string
		name               string
		receipt            []byte
	}{
		{offline.Card, "card_number", offline.MsgCard, bad, "r.png", pngReceipt},
		{offline.Bank, "sheba", offline.MsgAccount, map[string]string{"amount": "2000000", "sheba": "IR060170000000123456789012",
			"tracking_number": "1234", "transferred_at": time.Now().Format(time.RFC3339)}, "r.png", pngReceipt},
		{offline.Card, "receipt", offline.MsgReceiptBad, cardFields("2000000", "5555"), "receipt.png", []byte("this is plain text, not a PNG image")},
		{offline.Card, "receipt", offline.MsgNoReceipt, cardFields("2000000", "5556"), "", nil},
		{offline.Card, "receipt", offline.MsgReceiptBig, cardFields("2000000", "5557"), "big.png",
			append(append([]byte{}, pngReceipt...), make([]byte, offline.MaxReceipt)...)},
		{offline.Card, "amount", offline.MsgAmount, cardFields("999999", "5558"), "r.png", pngReceipt},
		{offline.Card, "transferred_at", offline.MsgTimeFuture, map[string]string{"amount": "2000000", "card_number": goodCard,
			"tracking_number": "5559", "transferred_at": time.Now().Add(time.Hour).Format(time.RFC3339)}, "r.png", pngReceipt},
	}
	for _, c := range cases {
		code, raw, _ := p.report(c.method, c.fields, c.name, c.receipt)
		if code != 422 && !(code == 413 && c.msg == offline.MsgReceiptBig) || code == 422 && !bytes.Contains(raw, []byte(c.msg)) {
			t.Errorf("%s %s: %d %s", c.method, c.field, code, raw)
		}
	}
	if code, _, _ := p.report(offline.Card, cardFields("2000000", "77778888"), "r.png", pngReceipt); code != 201 {
		t.Fatalf("good report: %d", code)
	}
	if code, raw, _ := p.report(offline.Card, cardFields("2000000", "77778888"), "r.png", pngReceipt); code != 422 ||
		!bytes.Contains(raw, []byte(offline.MsgDuplicate)) {
		t.Fatalf("same tracking number again: %d %s", code, raw)
	}
	if rows := p.myOffline(); len(rows) != 1 {
		t.Fatalf("refused reports stored: %+v", rows)
	}
}

// Staff approving the same report at once credit it once.
func TestOfflineConcurrentApprovals(t *testing.T) {
	p := newPayEnv(t, "offrace", "09121118005")
	stok := p.Staff("offstaff3", "09121118903")
	_, _, op := p.report(offline.Card, cardFields("3000000", "424242"), "r.png", pngReceipt)
	it := p.pendingItem(stok, op.ID)
	var wg sync.WaitGroup
	codes := make([]int, 8)
	for i := range codes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			codes[i] = p.Do("POST", "/v1/api/admin/reviews/"+strconv.FormatInt(it.ID, 10)+"/approve", map[string]any{}, stok).Status
		}()
	}
	wg.Wait()
	ok := 0
	for _, c := range codes {
		if c == 200 {
			ok++
		} else if c != 409 {
			t.Errorf("approval answered %d", c)
		}
	}
	if b, n := p.money(); ok != 1 || b != 2_700_000 || n != 1 {
		t.Fatalf("%d approvals went through; balance %d in %d rows", ok, b, n)
	}
}

// The destination card and account come from the settings; the card owner inquiry
// answers the configured owner.
func TestOfflineDestination(t *testing.T) {
	p := newPayEnv(t, "offdest", "09121118006")
	var dest offline.Destination
	p.Must(200, "GET", "/v1/api/user/setting/parent_account_contact", nil, p.token).Decode(t, &dest)
	if dest.CardNumber != p.Config.OfflineCardNumber || dest.IBAN != p.Config.OfflineSheba {
		t.Fatalf("destination %+v", dest)
	}
	var owner offline.CardOwner
	p.Must(200, "GET", "/v1/api/payment/offline/card-owner", nil, p.token).Decode(t, &owner)
	if owner.Owner != p.Config.OfflineCardOwner || owner.BankName == "" {
		t.Fatalf("card owner %+v", owner)
	}
	var methods []offline.Method
	p.Must(200, "GET", "/v1/api/user/setting/payment_method_list", nil, p.token).Decode(t, &methods)
	if len(methods) != 3 || !methods[1].Enabled || methods[1].Key != offline.Card {
		t.Fatalf("methods %+v", methods)
	}
}
