package httpapi_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/chapar/chapar/pkg/payment/offline"
	"github.com/chapar/chapar/pkg/persian"
	"github.com/chapar/chapar/pkg/upload"
)

// TestFileManagement lists every file of an account by category (uploads and an
// offline payment's receipt, with its review state), downloads the receipt,
// refuses deleting a file a scheduled send or a recurring campaign reads (naming
// it) and a receipt, and shows another account nothing.
func TestFileManagement(t *testing.T) {
	p := newPayEnv(t, "filer", "09121118051")
	ctx := context.Background()
	sendFile := fileFixture(t, p.Env, p.acct, "send", "ready", []string{"موبایل"}, [][]string{{"09121230001"}})
	contacts := fileFixture(t, p.Env, p.acct, "contacts", "ready", []string{"موبایل"}, [][]string{{"09121230002"}})
	code, raw, op := p.report(offline.Card, cardFields("۲٬۰۰۰٬۰۰۰", "5550001"), "رسید.png", pngReceipt)
	if code != 201 {
		t.Fatalf("receipt %d %s", code, raw)
	}

	var all []upload.Entry
	r := p.Must(200, "GET", "/v1/api/user/files", nil, p.token)
	r.Decode(t, &all)
	if len(all) != 3 || *r.Meta.Total != 3 || all[0].Category != upload.CategoryReceipt || all[0].Review != "pending" ||
		all[0].Deletable || all[0].ID != op.ID {
		t.Fatalf("all files %s", r.Raw)
	}
	for cat, want := range map[string]int64{"send": sendFile, "contacts": contacts, "receipt": op.ID} {
		var one []upload.Entry
		p.Must(200, "GET", "/v1/api/user/files?category="+cat, nil, p.token).Decode(t, &one)
		if len(one) != 1 || one[0].ID != want || one[0].Category != cat || one[0].CategoryLabel == "" {
			t.Fatalf("category %s: %+v", cat, one)
		}
	}
	p.Must(422, "GET", "/v1/api/user/files?category=nope", nil, p.token)

	// The receipt downloads through its entry's path; another account gets 404.
	if body := download(t, p.URL+"/v1/api"+all[0].Download, p.token, 200); !bytes.Equal(body, pngReceipt) {
		t.Fatalf("receipt download: %d bytes", len(body))
	}
	p.Must(409, "POST", "/v1/api/user/files/delete", map[string]any{"id": op.ID, "category": "receipt"}, p.token)

	p.Register("filer2", pw, "09121118052")
	other := p.Login("filer2", pw)
	download(t, p.URL+"/v1/api"+all[0].Download, other, 404)
	if r := p.Must(200, "GET", "/v1/api/user/files", nil, other); string(r.Data) != "[]" {
		t.Fatalf("another account's list %s", r.Raw)
	}
	p.Must(404, "POST", "/v1/api/user/files/delete", map[string]any{"id": sendFile}, other)

	// A scheduled send reading the file: refused, naming the send.
	var sendID int64
	if err := p.DB.Pool.QueryRow(ctx, `INSERT INTO sends (account_id, type, sender, text, status, source, send_at)
		VALUES ($1, 'file', '3000', 'سلام', 'scheduled', jsonb_build_object('file_id', $2::bigint), now() + interval '1 day')
		RETURNING id`, p.acct, sendFile).Scan(&sendID); err != nil {
		t.Fatal(err)
	}
	del := map[string]any{"id": sendFile}
	if r := p.Must(409, "POST", "/v1/api/user/files/delete", del, p.token); !strings.Contains(r.Meta.Message,
		"ارسال زمان‌بندی‌شده شماره "+persian.Digits(strconv.FormatInt(sendID, 10))) {
		t.Fatalf("scheduled send: %s", r.Raw)
	}
	if _, err := p.DB.Pool.Exec(ctx, `UPDATE sends SET status = 'stopped' WHERE id = $1`, sendID); err != nil {
		t.Fatal(err)
	}
	// A recurring campaign reading it: refused, naming the campaign.
	var campaignID int64
	if err := p.DB.Pool.QueryRow(ctx, `INSERT INTO campaigns (account_id, title, request, schedule)
		VALUES ($1, 'جشنواره هفتگی', jsonb_build_object('type', 'file', 'file_id', $2::bigint, 'text', 'سلام'), '{"kind":"daily","time":"10:00"}')
		RETURNING id`, p.acct, sendFile).Scan(&campaignID); err != nil {
		t.Fatal(err)
	}
	if r := p.Must(409, "POST", "/v1/api/user/files/delete", del, p.token); !strings.Contains(r.Meta.Message, "«جشنواره هفتگی»") {
		t.Fatalf("campaign: %s", r.Raw)
	}
	if _, err := p.DB.Pool.Exec(ctx, `DELETE FROM campaigns WHERE id = $1`, campaignID); err != nil {
		t.Fatal(err)
	}
	p.Must(200, "POST", "/v1/api/user/files/delete", del, p.token)
	var left []upload.Entry
	p.Must(200, "GET", "/v1/api/user/files", nil, p.token).Decode(t, &left)
	if len(left) != 2 {
		t.Fatalf("after delete: %+v", left)
	}
}

// download GETs url with token and checks the status; it returns the body.
func download(t *testing.T, url, token string, status int) []byte {
	t.Helper()
	req, _ := http.NewRequest("GET", url, nil)
	req.Header.Set("Authorization", "Bearer "+token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	if res.StatusCode != status {
		t.Fatalf("GET %s: %d, want %d: %s", url, res.StatusCode, status, fmt.Sprint(string(body)))
	}
	return body
}
