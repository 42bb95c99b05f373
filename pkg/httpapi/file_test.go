package httpapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"mime"
	"mime/multipart"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/xuri/excelize/v2"

	"github.com/chapar/chapar/internal/testing/apitest"
	"github.com/chapar/chapar/pkg/config"
	"github.com/chapar/chapar/pkg/httpapi"
	"github.com/chapar/chapar/pkg/persian"
	"github.com/chapar/chapar/pkg/spreadsheet"
	"github.com/chapar/chapar/pkg/upload"
	"github.com/chapar/chapar/pkg/worker"
)

type filesFixture struct {
	t          *testing.T
	e          *apitest.Env
	dir        string
	tokA, tokB string
	accA       int64
}

// newFilesFixture starts the API and a real worker (an asynq server) on a private
// files directory, with two owners.
func newFilesFixture(t *testing.T) *filesFixture {
	t.Helper()
	dir := t.TempDir()
	e := apitest.Start(t, func(c *config.Config) { c.FilesDir = dir })
	e.Register("reza", pw, "09121110001")
	e.Register("mina", pw, "09121110002")
	f := &filesFixture{t: t, e: e, dir: dir, tokA: e.Login("reza", pw), tokB: e.Login("mina", pw)}
	u, err := e.Accounts.ByUsername(context.Background(), "reza")
	if err != nil {
		t.Fatal(err)
	}
	f.accA = u.AccountID
	w := worker.New(e.Config, slog.New(slog.NewTextHandler(io.Discard, nil)), e.DB.Pool, e.Redis.Client, e.Queue,
		e.Deps.Live.Publisher())
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); _ = w.Run(ctx, "files-test", 2) }()
	t.Cleanup(func() { cancel(); <-done })
	return f
}

// upload posts a multipart form: the purpose field before or after the file.
func (f *filesFixture) upload(token, name string, content io.Reader, purpose string, purposeFirst bool) apitest.Response {
	f.t.Helper()
	pr, pw := io.Pipe()
	mw := multipart.NewWriter(pw)
	go func() {
		field := func() error {
			if purpose == "" {
				return nil
			}
			return mw.WriteField("purpose", purpose)
		}
		err := func() error {
			if purposeFirst {
				if err := field(); err != nil {
					return err
				}
			}
			part, err := mw.CreateFormFile("file", name)
			if err != nil {
				return err
			}
			if _, err := io.Copy(part, content); err != nil {
				return err
			}
			if !purposeFirst {
				if err := field(); err != nil {
					return err
				}
			}
			return mw.Close()
		}()
		pw.CloseWithError(err)
	}()
	req, err := http.NewRequest("POST", f.e.URL+"/v1/api/user/files", pr)
	if err != nil {
		f.t.Fatal(err)
	}
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.Header.Set("Authorization", "Bearer "+token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		f.t.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	out := apitest.Response{Status: res.StatusCode, Header: res.Header, Raw: raw}
	var env struct {
		Data json.RawMessage `json:"data"`
		Meta httpapi.Meta    `json:"meta"`
	}
	if err := json.Unmarshal(raw, &env); err != nil {
		f.t.Fatalf("upload %s: not an envelope (%d): %s", name, res.StatusCode, raw)
	}
	out.Data, out.Meta = env.Data, env.Meta
	return out
}

// uploaded uploads and returns the new file's id.
func (f *filesFixture) uploaded(name string, data []byte, purpose string) int64 {
	f.t.Helper()
	r := f.upload(f.tokA, name, bytes.NewReader(data), purpose, false)
	if r.Status != http.StatusCreated {
		f.t.Fatalf("upload %s: %d %s", name, r.Status, r.Raw)
	}
	var up upload.Uploaded
	r.Decode(f.t, &up)
	if up.ID == 0 || up.Name != name || up.Status != "parsing" {
		f.t.Fatalf("upload answer %s", r.Raw)
	}
	return up.ID
}

// parsed polls the file until it is no longer parsing.
func (f *filesFixture) parsed(id int64) map[string]any {
	f.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		r := f.e.Must(200, "GET", fmt.Sprintf("/v1/api/user/files/%d", id), nil, f.tokA)
		var m map[string]any
		r.Decode(f.t, &m)
		if m["status"] != "parsing" {
			return m
		}
		time.Sleep(50 * time.Millisecond)
	}
	f.t.Fatalf("file %d still parsing", id)
	return nil
}

// get downloads a path, returning status, headers and body.
func (f *filesFixture) get(path, token string) (int, http.Header, []byte) {
	f.t.Helper()
	req, _ := http.NewRequest("GET", f.e.URL+path, nil)
	req.Header.Set("Authorization", "Bearer "+token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		f.t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, res.Header, b
}

func jsonOf(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestFileUpload: upload → live progress → poll → pre-flight report, the list, the
// downloads, and the delete.
func TestFileUpload(t *testing.T) {
	f := newFilesFixture(t)
	e := f.e
	ctx := context.Background()
	if _, err := e.DB.Pool.Exec(ctx, `INSERT INTO blacklist (account_id, kind, mobile) VALUES ($1, 'cancel11', '989351234567')`,
		f.accA); err != nil {
		t.Fatal(err)
	}
	ws := e.Socket(f.tokA)
	if err := ws.WriteMessage(websocket.TextMessage, []byte("9")); err != nil {
		t.Fatal(err)
	}
	_ = ws.SetReadDeadline(time.Now().Add(3 * time.Second))
	if _, msg, err := ws.ReadMessage(); err != nil || string(msg) != "9" {
		t.Fatalf("ping answer %q %v", msg, err)
	}

	original, err := os.ReadFile("../upload/testdata/libreoffice-numbers.xlsx")
	if err != nil {
		t.Fatal(err)
	}
	id := f.uploaded("شماره‌ها.xlsx", original, "")
	m := f.parsed(id)
	want := map[string]any{"id": float64(id), "name": "شماره‌ها.xlsx", "purpose": "send", "size": float64(len(original)),
		"status": "ready", "progress": float64(100), "error": "", "records": float64(7), "valid": float64(4),
		"invalid": float64(2), "duplicates": float64(1), "blacklisted": float64(1), "mobile_col": float64(1), "text_col": nil}
	for k, v := range want {
		if !reflect.DeepEqual(m[k], v) {
			t.Errorf("%s = %v, want %v", k, m[k], v)
		}
	}
	if got := jsonOf(t, m["columns"]); got != `[{"index":0,"key":"A","title":"نام"},{"index":1,"key":"B","title":"شماره موبایل"},{"index":2,"key":"C","title":"مبلغ"}]` {
		t.Errorf("columns %s", got)
	}
	if got := jsonOf(t, m["per_operator"]); got != `[{"operator":"mci","parts":0,"parts_cancel11":0,"recipients":2},{"operator":"rightel","parts":0,"parts_cancel11":0,"recipients":1}]` {
		t.Errorf("per_operator %s", got)
	}
	if got := jsonOf(t, m["errors_sample"]); got != `[{"kind":"format","message":"قالب شماره اشتباه است","row":8,"value":"021-88776655"},{"kind":"empty","message":"خانه خالی است","row":9,"value":""}]` {
		t.Errorf("errors_sample %s", got)
	}
	for _, k := range []string{"created_at", "parsed_at"} {
		if _, err := time.Parse(time.RFC3339, fmt.Sprint(m[k])); err != nil {
			t.Errorf("%s = %v", k, m[k])
		}
	}
	// The final live event.
	for {
		_ = ws.SetReadDeadline(time.Now().Add(5 * time.Second))
		_, msg, err := ws.ReadMessage()
		if err != nil {
			t.Fatalf("no file.progress event: %v", err)
		}
		var ev struct {
			Event string         `json:"event"`
			Data  map[string]any `json:"data"`
		}
		_ = json.Unmarshal(msg, &ev)
		if ev.Event == "file.progress" && ev.Data["status"] == "ready" {
			if ev.Data["id"] != float64(id) || ev.Data["progress"] != float64(100) || ev.Data["records"] != float64(7) {
				t.Fatalf("event %s", msg)
			}
			break
		}
	}

	// The list, filtered by purpose, and the categories.
	r := e.Must(200, "GET", "/v1/api/user/files?page=1&limit=10", nil, f.tokA)
	var list []map[string]any
	r.Decode(t, &list)
	if len(list) != 1 || list[0]["id"] != float64(id) || list[0]["category"] != "send" || list[0]["download"] != fmt.Sprintf("/user/files/%d/download", id) || r.Meta.Total == nil || *r.Meta.Total != 1 {
		t.Fatalf("list %s", r.Raw)
	}
	if _, ok := list[0]["errors_sample"]; ok {
		t.Fatalf("the list carries errors_sample: %s", r.Raw)
	}
	r = e.Must(200, "GET", "/v1/api/user/files?purpose=peer_to_peer", nil, f.tokA)
	if string(r.Data) != "[]" || *r.Meta.Total != 0 {
		t.Fatalf("filtered list %s", r.Raw)
	}
	e.Must(422, "GET", "/v1/api/user/files?purpose=nope", nil, f.tokA)
	r = e.Must(200, "GET", "/v1/api/user/files/categories", nil, f.tokA)
	if string(r.Data) != `[{"value":"send","label":"ارسال از فایل"},{"value":"peer_to_peer","label":"ارسال نظیر به نظیر"},{"value":"contacts","label":"ورود مخاطبین"},{"value":"receipt","label":"رسید پرداخت"},{"value":"ticket_attachment","label":"پیوست تیکت و پیشنهاد"}]` {
		t.Fatalf("categories %s", r.Data)
	}

	// Downloads: the original, the row errors, the samples.
	base := fmt.Sprintf("/v1/api/user/files/%d", id)
	status, h, body := f.get(base+"/download", f.tokA)
	_, params, _ := mime.ParseMediaType(h.Get("Content-Disposition"))
	if status != 200 || !bytes.Equal(body, original) || params["filename"] != "شماره‌ها.xlsx" ||
		!strings.HasPrefix(h.Get("Content-Disposition"), "attachment") {
		t.Fatalf("download: %d %q %d bytes", status, h.Get("Content-Disposition"), len(body))
	}
	status, h, body = f.get(base+"/errors/download", f.tokA)
	if status != 200 || h.Get("Content-Type") != spreadsheet.ContentType {
		t.Fatalf("errors download: %d %s", status, body)
	}
	if rows := xlsxRows(t, body, "خطاها"); !reflect.DeepEqual(rows, [][]string{{"ردیف", "مقدار", "خطا"},
		{"8", "021-88776655", "قالب شماره اشتباه است"}, {"9", "", "خانه خالی است"}}) {
		t.Fatalf("errors xlsx %q", rows)
	}
	for purpose, header := range map[string][]string{"send": {"شماره موبایل"}, "peer_to_peer": {"شماره موبایل", "متن پیام"},
		"keyword": {"شماره موبایل", "نام", "مبلغ"}, "contacts": {"شماره موبایل", "نام", "نام خانوادگی"}} {
		status, _, body = f.get("/v1/api/user/files/samples/"+purpose, f.tokA)
		if status != 200 {
			t.Fatalf("sample %s: %d %s", purpose, status, body)
		}
		if rows := xlsxRows(t, body, "نمونه"); !reflect.DeepEqual(rows[0], header) || rows[1][0] != "09121234567" {
			t.Fatalf("sample %s: %q", purpose, rows)
		}
	}
	e.Must(404, "GET", "/v1/api/user/files/samples/nope", nil, f.tokA)

	// Another account gets 404 everywhere and sees an empty list.
	for _, p := range []string{base, base + "/download", base + "/errors/download"} {
		e.Must(404, "GET", p, nil, f.tokB)
	}
	e.Must(404, "POST", "/v1/api/user/files/delete", map[string]any{"id": id}, f.tokB)
	if r := e.Must(200, "GET", "/v1/api/user/files", nil, f.tokB); string(r.Data) != "[]" {
		t.Fatalf("B's list %s", r.Raw)
	}
	e.Must(422, "GET", "/v1/api/user/files/abc", nil, f.tokA)

	// Delete: the row, its rows and the stored original go.
	stored, _ := filepath.Glob(filepath.Join(f.dir, strconv.FormatInt(f.accA, 10), "*.xlsx"))
	if len(stored) != 1 {
		t.Fatalf("stored files %v", stored)
	}
	// Not while a send that has not expanded yet will read it.
	var sendID int64
	if err := e.DB.Pool.QueryRow(ctx, `INSERT INTO sends (account_id, type, sender, text, status, source)
		VALUES ($1, 'file', '3000', 'سلام', 'scheduled', jsonb_build_object('file_id', $2::bigint)) RETURNING id`,
		f.accA, id).Scan(&sendID); err != nil {
		t.Fatal(err)
	}
	if r := e.Must(409, "POST", "/v1/api/user/files/delete", map[string]any{"id": id}, f.tokA); !strings.Contains(r.Meta.Message,
		"ارسال زمان‌بندی‌شده شماره "+persian.Digits(strconv.FormatInt(sendID, 10))) {
		t.Fatalf("delete in use: %s", r.Raw)
	}
	// Nor while the send waits for staff review (it goes out once approved).
	if _, err := e.DB.Pool.Exec(ctx, `UPDATE sends SET status = 'held' WHERE id = $1`, sendID); err != nil {
		t.Fatal(err)
	}
	e.Must(409, "POST", "/v1/api/user/files/delete", map[string]any{"id": id}, f.tokA)
	if _, err := e.DB.Pool.Exec(ctx, `UPDATE sends SET status = 'done', expanded_at = now() WHERE id = $1`, sendID); err != nil {
		t.Fatal(err)
	}
	e.Must(200, "POST", "/v1/api/user/files/delete", map[string]any{"id": strconv.FormatInt(id, 10)}, f.tokA)
	e.Must(404, "GET", base, nil, f.tokA)
	if _, err := os.Stat(stored[0]); !os.IsNotExist(err) {
		t.Fatalf("the original is still stored: %v", err)
	}
	var left int
	_ = e.DB.Pool.QueryRow(ctx, `SELECT (SELECT count(*) FROM file_rows WHERE file_id = $1) + (SELECT count(*) FROM file_row_errors WHERE file_id = $1)`, id).Scan(&left)
	if left != 0 {
		t.Fatalf("%d rows left", left)
	}
}

// TestFileUploadRefusals: extensions, peer-to-peer rules, empty and too large files,
// a body that is not multipart, the per-account rate.
func TestFileUploadRefusals(t *testing.T) {
	f := newFilesFixture(t)
	cases := []struct {
		name, purpose string
		first         bool
		data          string
		status        int
		msg           string
	}{
		{"a.pdf", "", false, "x", 422, upload.MsgExtension},
		{"a", "", false, "x", 422, upload.MsgExtension},
		{"old.XLS", "", false, "x", 422, upload.MsgXLS},
		{"p.csv", "peer_to_peer", true, "09121234567,سلام\n", 422, upload.MsgPeerToPeerExt},
		{"p.csv", "peer_to_peer", false, "09121234567,سلام\n", 422, upload.MsgPeerToPeerExt},
		{"n.csv", "bogus", false, "09121234567\n", 422, upload.MsgPurpose},
		{"e.csv", "", false, "", 422, upload.MsgEmpty},
	}
	for _, c := range cases {
		r := f.upload(f.tokA, c.name, strings.NewReader(c.data), c.purpose, c.first)
		if r.Status != c.status || r.Meta.Message != c.msg {
			t.Errorf("%s (%s): %d %s", c.name, c.purpose, r.Status, r.Raw)
		}
	}
	// One byte over 64 MB, streamed: 413, and nothing is kept.
	big := io.MultiReader(strings.NewReader("09121234567\n"), io.LimitReader(zeros{}, upload.DefaultMaxBytes-12+1))
	r := f.upload(f.tokA, "big.txt", big, "", false)
	if r.Status != http.StatusRequestEntityTooLarge || r.Meta.Message != upload.MsgTooLarge {
		t.Fatalf("too large: %d %s", r.Status, r.Raw)
	}
	// Nothing refused above left a stored file or a row.
	var files int
	_ = f.e.DB.Pool.QueryRow(context.Background(), `SELECT count(*) FROM files`).Scan(&files)
	left, _ := filepath.Glob(filepath.Join(f.dir, "*", "*"))
	if files != 0 || len(left) != 0 {
		t.Fatalf("refused uploads left %d rows and files %v", files, left)
	}
	r = f.e.Do("POST", "/v1/api/user/files", `{"file": "x"}`, f.tokA)
	if r.Status != 422 || r.Meta.Message != upload.MsgNotMultipart {
		t.Fatalf("json body: %d %s", r.Status, r.Raw)
	}

	// Peer-to-peer needs a message and a mobile column: it fails after parsing.
	x := excelize.NewFile()
	_ = x.SetSheetRow("Sheet1", "A1", &[]any{"موبایل"})
	_ = x.SetSheetRow("Sheet1", "A2", &[]any{"09121234567"})
	var buf bytes.Buffer
	if err := x.Write(&buf); err != nil {
		t.Fatal(err)
	}
	id := f.uploaded("p2p.xlsx", buf.Bytes(), "peer_to_peer")
	if m := f.parsed(id); m["status"] != "failed" || m["error"] != upload.MsgPeerToPeer || m["purpose"] != "peer_to_peer" {
		t.Fatalf("one-column peer-to-peer: %v", m)
	}

	// The per-account upload rate.
	f.e.Deps.Files.PerMin = 1 // this minute already had one upload
	r = f.upload(f.tokA, "n.txt", strings.NewReader("09121234567\n"), "", false)
	if r.Status != http.StatusTooManyRequests || r.Header.Get("Retry-After") == "" {
		t.Fatalf("rate: %d %s", r.Status, r.Raw)
	}
	if r := f.upload(f.tokB, "n.txt", strings.NewReader("09121234567\n"), "", false); r.Status != http.StatusCreated {
		t.Fatalf("another account's rate: %d %s", r.Status, r.Raw)
	}
}

type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = '0'
	}
	return len(p), nil
}
