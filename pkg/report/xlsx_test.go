package report_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/xuri/excelize/v2"

	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/line"
	"github.com/chapar/chapar/pkg/persian"
	"github.com/chapar/chapar/pkg/report"
	"github.com/chapar/chapar/pkg/send"
	"github.com/chapar/chapar/pkg/spreadsheet"
)

const sheet = "گیرندگان"

// downloadServer serves the export as the API does, with the caller's account in
// the X-Account header instead of a session.
func downloadServer(t *testing.T, svc *report.Service) *httptest.Server {
	t.Helper()
	gin.SetMode(gin.ReleaseMode)
	r := gin.New()
	r.GET("/report/download_recipients", func(c *gin.Context) {
		account, _ := strconv.ParseInt(c.GetHeader("X-Account"), 10, 64)
		id, err := report.ParseID(c.Query("id"))
		if err != nil {
			c.AbortWithStatus(http.StatusUnprocessableEntity)
			return
		}
		pr, pw := io.Pipe()
		done := make(chan error, 1)
		go func() {
			err := svc.WriteRecipientsXLSX(c.Request.Context(), account, id, pw)
			pw.CloseWithError(err)
			done <- err
		}()
		// The first byte decides the status: nothing is written on an early error.
		first := make([]byte, 1)
		if _, err := io.ReadFull(pr, first); err != nil {
			werr := <-done
			if errors.Is(werr, apperr.ErrNotFound) {
				c.AbortWithStatus(http.StatusNotFound)
				return
			}
			c.AbortWithStatus(http.StatusInternalServerError)
			return
		}
		c.Header("Content-Disposition", `attachment; filename="recipients-`+strconv.FormatInt(id, 10)+`.xlsx"`)
		c.DataFromReader(http.StatusOK, -1, spreadsheet.ContentType, io.MultiReader(bytes.NewReader(first), pr), nil)
		<-done
	})
	srv := httptest.NewServer(r)
	t.Cleanup(srv.Close)
	return srv
}

func download(t *testing.T, srv *httptest.Server, account, send int64) (*http.Response, []byte) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, srv.URL+"/report/download_recipients?id="+strconv.FormatInt(send, 10), nil)
	req.Header.Set("X-Account", strconv.FormatInt(account, 10))
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return res, body
}

func TestRecipientsXLSX(t *testing.T) {
	ctx := context.Background()
	svc := report.New(pool)
	a, _, _ := account(t)
	b, _, _ := account(t)
	send := seedSend(t, a, sendSeed{Status: "sending", Requested: 40, Recipients: 40, Expanded: true})
	seedRecipients(t, send, 40, "(g % 8)")
	want, _, err := svc.Recipients(ctx, a, send, nil, 1, 100)
	if err != nil {
		t.Fatal(err)
	}
	srv := downloadServer(t, svc)

	res, body := download(t, srv, a, send)
	if res.StatusCode != http.StatusOK || res.Header.Get("Content-Type") != spreadsheet.ContentType {
		t.Fatalf("download: %d %s", res.StatusCode, res.Header.Get("Content-Type"))
	}
	f, err := excelize.OpenReader(bytes.NewReader(body))
	if err != nil {
		t.Fatalf("the download is not an xlsx file: %v", err)
	}
	defer f.Close()
	if got := f.GetSheetList(); len(got) != 1 || got[0] != sheet {
		t.Fatalf("sheets %v", got)
	}
	if v, err := f.GetSheetView(sheet, 0); err != nil || v.RightToLeft == nil || !*v.RightToLeft {
		t.Fatalf("the sheet is not right-to-left: %+v %v", v, err)
	}
	rows, err := f.GetRows(sheet)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 41 {
		t.Fatalf("%d rows, want a header and 40 recipients", len(rows))
	}
	for i, h := range report.XLSXHeader {
		if rows[0][i] != h {
			t.Fatalf("header %v", rows[0])
		}
	}
	var sendText string
	var created time.Time
	if err := pool.QueryRow(ctx, `SELECT text, created_at FROM sends WHERE id = $1`, send).Scan(&sendText, &created); err != nil {
		t.Fatal(err)
	}
	operators := map[string]string{"mci": "همراه اول", "irancell": "ایرانسل"}
	for i, r := range want {
		row := append(rows[i+1], make([]string, len(report.XLSXHeader))...)
		cell, _ := excelize.CoordinatesToCellName(4, i+2)
		typ, err := f.GetCellType(sheet, cell)
		if err != nil || (typ != excelize.CellTypeInlineString && typ != excelize.CellTypeSharedString) {
			t.Fatalf("mobile cell %s is of type %v, want a string", cell, typ)
		}
		if row[0] != strconv.FormatInt(send, 10) || row[1] != persian.JalaliDateTime(created) || row[2] != sendText {
			t.Fatalf("row %d: send columns %v", i+2, row[:3])
		}
		if row[3] != "0"+r.Mobile[2:] || row[4] != operators[r.Operator] || row[5] != strconv.Itoa(r.Parts) ||
			row[6] != report.StatusWords[r.Status] {
			t.Fatalf("row %d: %v, want %+v", i+2, row, r)
		}
		if wantTime := persian.JalaliDateTime(r.UpdatedAt); row[9] != wantTime || !strings.HasPrefix(row[9], "14") {
			t.Fatalf("row %d time %q, want %q (Jalali, Tehran)", i+2, row[9], wantTime)
		}
		if row[10] != r.Reason || (r.Status == report.StatusUndelivered && r.Reason == "") {
			t.Fatalf("row %d reason %q, want %q", i+2, row[10], r.Reason)
		}
	}

	// Another account's send, or none, is a 404 with no file.
	if res, body := download(t, srv, b, send); res.StatusCode != http.StatusNotFound || len(body) != 0 {
		t.Fatalf("B downloading A's recipients: %d, %d bytes", res.StatusCode, len(body))
	}
}

// TestRecipientsXLSXMemory exports 200,000 recipients and checks the Go heap grows by
// a bounded amount (the stream writer spills to disk and the archive is zipped
// straight into the writer), then parses the file back.
func TestRecipientsXLSXMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("seeds 200,000 recipients")
	}
	const n = 200_000
	svc := report.New(pool)
	a, _, _ := account(t)
	send := seedSend(t, a, sendSeed{Status: "done", Requested: n, Recipients: n, Expanded: true})
	seedRecipients(t, send, n, "CASE WHEN g % 10 = 0 THEN 3 ELSE 2 END")
	path := filepath.Join(t.TempDir(), "big.xlsx")
	out, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()

	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	var (
		peak uint64
		stop = make(chan struct{})
		wg   sync.WaitGroup
	)
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(20 * time.Millisecond)
		defer t.Stop()
		var m runtime.MemStats
		for {
			select {
			case <-stop:
				return
			case <-t.C:
				runtime.ReadMemStats(&m)
				peak = max(peak, m.HeapAlloc)
			}
		}
	}()
	start := time.Now()
	err = svc.WriteRecipientsXLSX(context.Background(), a, send, out)
	took := time.Since(start)
	close(stop)
	wg.Wait()
	if err != nil {
		t.Fatal(err)
	}
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	peak = max(peak, after.HeapAlloc)
	growth := int64(peak) - int64(before.HeapAlloc)
	st, _ := out.Stat()
	t.Logf("exported %d recipients in %s: file %.1f MB, heap before %.1f MB, peak %.1f MB (growth %.1f MB), allocated %.0f MB in total",
		n, took.Round(time.Millisecond), mb(st.Size()), mb(int64(before.HeapAlloc)), mb(int64(peak)), mb(growth),
		mb(int64(after.TotalAlloc-before.TotalAlloc)))
	// The stream writer keeps up to 16 MB in memory before spilling; everything else
	// is per chunk. Building the sheet in memory would take hundreds of MB.
	if growth > 128<<20 {
		t.Fatalf("heap grew by %.1f MB exporting %d recipients", mb(growth), n)
	}

	f, err := excelize.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := f.Rows(sheet)
	if err != nil {
		t.Fatal(err)
	}
	count := 0
	var last []string
	for rows.Next() {
		count++
		if count == n+1 {
			if last, err = rows.Columns(); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := rows.Close(); err != nil {
		t.Fatal(err)
	}
	if count != n+1 || len(last) < 7 || last[3] != "09120200000" || last[6] != "نرسیده به گوشی" {
		t.Fatalf("parsed back %d rows (want %d), last %v", count, n+1, last)
	}
}

func mb(b int64) float64 { return float64(b) / (1 << 20) }

// A recipient whose carrier answered EXPIRED is exported with the Persian reason,
// the carrier's message id and no delivery time; a delivered one with its
// Jalali delivery time and no reason. The recipients page shows the same reason.
func TestRecipientsXLSXReceiptReason(t *testing.T) {
	ctx := context.Background()
	svc := report.New(pool)
	sends := send.New(pool, nil, line.New(pool), nil, 0, nil)
	a, _, _ := account(t)
	sendID := seedSend(t, a, sendSeed{Status: "sending", Requested: 2, Recipients: 2, Expanded: true, Text: "کد تخفیف شما"})
	var expired, delivered int64
	for _, p := range []struct {
		mobile string
		id     *int64
	}{{"989121110001", &expired}, {"989121110002", &delivered}} {
		if err := pool.QueryRow(ctx, `INSERT INTO recipients (send_id, batch, mobile, operator, parts, cost, status)
			VALUES ($1, 0, $2, 'mci', 1, 230, 0) RETURNING id`, sendID, p.mobile).Scan(p.id); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := pool.Exec(ctx, `INSERT INTO message_ids (operator, msg_id, recipient_id, send_id, part) VALUES
		('mci', 'x-exp-1', $1, $3, 1), ('mci', 'x-dlv-1', $2, $3, 1)`, expired, delivered, sendID); err != nil {
		t.Fatal(err)
	}
	if _, err := sends.ApplyReceipts(ctx, []send.Receipt{
		{Operator: "mci", MsgID: "x-exp-1", Stat: send.StatUndelivered, State: "EXPIRED", Mobile: "989121110001"},
		{Operator: "mci", MsgID: "x-dlv-1", Stat: send.StatDelivered, Mobile: "989121110002"},
	}); err != nil {
		t.Fatal(err)
	}
	const reason = "منقضی شد (گوشی در دسترس نبود)"
	page, _, err := svc.Recipients(ctx, a, sendID, nil, 1, 10)
	if err != nil || len(page) != 2 || page[0].Reason != reason || page[1].Reason != "" {
		t.Fatalf("recipients page %+v %v", page, err)
	}
	res, body := download(t, downloadServer(t, svc), a, sendID)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("download: %d", res.StatusCode)
	}
	f, err := excelize.OpenReader(bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := f.GetRows(sheet)
	if err != nil || len(rows) != 3 {
		t.Fatalf("rows %v %v", rows, err)
	}
	exp, dlv := append(rows[1], make([]string, 11)...), append(rows[2], make([]string, 11)...)
	if exp[3] != "09121110001" || exp[2] != "کد تخفیف شما" || exp[7] != "x-exp-1" || exp[8] != "" || exp[10] != reason {
		t.Fatalf("expired row %q", exp[:11])
	}
	if dlv[3] != "09121110002" || dlv[7] != "x-dlv-1" || !strings.HasPrefix(dlv[8], "14") || dlv[10] != "" {
		t.Fatalf("delivered row %q", dlv[:11])
	}
}

// Every state a carrier's receipt or the engine records has a Persian reason.
func TestReasonText(t *testing.T) {
	cases := map[string]string{
		"EXPIRED":         "منقضی شد (گوشی در دسترس نبود)",
		"UNDELIV err:011": "تحویل‌ناپذیر (شماره نامعتبر، خاموش یا خارج از سرویس) — کد خطای اپراتور ۰۱۱",
		"smsc:0x0B":       "شماره گیرنده نامعتبر است",
		"smsc:0x99":       "اپراتور پیام را نپذیرفت (کد ۰x۹۹)",
		"no-receipt":      "گزارش تحویل از اپراتور نرسید",
	}
	for code, want := range cases {
		if got := report.ReasonText(report.StatusUndelivered, code); got != want {
			t.Errorf("ReasonText(%q) = %q, want %q", code, got, want)
		}
	}
	for _, code := range []string{"UNDELIV", "REJECTD", "DELETED", "UNKNOWN", "BLOCKED", "stopped", "blocked",
		"text:too_many_parts", "text:empty", "submit:invalid"} {
		if got := report.ReasonText(report.StatusUndelivered, code); got == code || got == "" {
			t.Errorf("ReasonText(%q) = %q: no Persian reason", code, got)
		}
	}
	if got := report.ReasonText(report.StatusBlacklisted, ""); got != "در لیست سیاه" {
		t.Errorf("blacklisted: %q", got)
	}
}
