package httpapi_test

import (
	"bytes"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
)

// testSeller is a complete form of the seller's details (the back office's).
var testSeller = map[string]any{"name": "شرکت پیام‌رسان نمونه", "national_id": "14006392517", "economic_code": "411345678912",
	"registration_number": "54321", "address": "تهران، خیابان آزادی", "postal_code": "1459812345", "phone": "02188776655"}

// A payment made through the sandbox bank shows its id on its transactions row, and
// that id downloads the invoice PDF under a Persian file name. A payment not yet paid
// has no invoice; another account's owner gets 404 for it (the route walk checks
// that too).
func TestInvoiceDownload(t *testing.T) {
	p := newPayEnv(t, "invoicer", "09121117301")
	st := p.start("3000000")
	p.callback(p.bank(st, "pay"))
	var rows []struct {
		PaymentID *int64 `json:"payment_id"`
	}
	p.Must(200, "POST", "/v1/api/report/payment/new", map[string]any{}, p.token).Decode(t, &rows)
	if len(rows) != 1 || rows[0].PaymentID == nil || *rows[0].PaymentID != st.PaymentID {
		t.Fatalf("transactions %+v, want the row of payment %d", rows, st.PaymentID)
	}
	path := "/v1/api/payment/invoice/" + strconv.FormatInt(st.PaymentID, 10)
	// No invoice before staff set the seller's details; a bad form is refused.
	p.Must(409, "GET", path, nil, p.token)
	staffTok := p.Staff("sellerstaff", "09121117309")
	p.Must(422, "POST", "/v1/api/admin/invoice-seller", map[string]any{"name": "شرکت نمونه"}, staffTok)
	p.Must(200, "POST", "/v1/api/admin/invoice-seller", testSeller, staffTok)
	var got struct {
		Complete bool `json:"complete"`
	}
	p.Must(200, "GET", "/v1/api/admin/invoice-seller", nil, staffTok).Decode(t, &got)
	if !got.Complete {
		t.Fatal("the stored seller is not complete")
	}
	req, _ := http.NewRequest("GET", p.URL+path, nil)
	req.Header.Set("Authorization", "Bearer "+p.token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	if res.StatusCode != 200 || res.Header.Get("Content-Type") != "application/pdf" || !bytes.HasPrefix(raw, []byte("%PDF")) {
		t.Fatalf("invoice: %d %s %q", res.StatusCode, res.Header.Get("Content-Type"), raw[:min(len(raw), 40)])
	}
	if cd := res.Header.Get("Content-Disposition"); !strings.Contains(cd, "filename*=utf-8''%D9%81%D8%A7%DA%A9%D8%AA%D9%88%D8%B1") {
		t.Errorf("Content-Disposition %q lacks the Persian name", cd)
	}
	pending := p.start("1000000")
	p.Must(404, "GET", "/v1/api/payment/invoice/"+strconv.FormatInt(pending.PaymentID, 10), nil, p.token)
	p.Register("invoicer2", pw, "09121117302")
	p.Must(404, "GET", path, nil, p.Login("invoicer2", pw))
}
