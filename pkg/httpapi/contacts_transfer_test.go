package httpapi_test

// Contact export and import through the upload pipeline and the worker task.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/hibiken/asynq"
	"github.com/xuri/excelize/v2"

	"github.com/chapar/chapar/internal/testing/apitest"
	"github.com/chapar/chapar/jobs"
	"github.com/chapar/chapar/pkg/phonebook"
	"github.com/chapar/chapar/pkg/spreadsheet"
	"github.com/chapar/chapar/pkg/validate"
	"github.com/chapar/chapar/pkg/worker"
)

// rawGet downloads a file as A.
func (f *contactsFixture) rawGet(path string) []byte {
	f.t.Helper()
	req, _ := http.NewRequest("GET", f.e.URL+pbAPI+path, nil)
	req.Header.Set("Authorization", "Bearer "+f.tokA)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		f.t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	if res.StatusCode != 200 || res.Header.Get("Content-Type") != spreadsheet.ContentType ||
		!strings.Contains(res.Header.Get("Content-Disposition"), "attachment") {
		f.t.Fatalf("GET %s: %d %v %.200s", path, res.StatusCode, res.Header, body)
	}
	return body
}

// xlsxRows opens an Excel file and reads one sheet.
func xlsxRows(t *testing.T, body []byte, sheet string) [][]string {
	t.Helper()
	x, err := excelize.OpenReader(bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	rows, err := x.GetRows(sheet)
	if err != nil {
		t.Fatalf("sheet %s of %v: %v", sheet, x.GetSheetList(), err)
	}
	return rows
}

func TestContactExport(t *testing.T) {
	f := newContactsFixture(t)
	book := f.phonebook("صادرات")
	f.must(201, "POST", "/options", map[string]any{"title_fa": "امتیاز", "title_en": "score", "type": "integer"})
	f.add(book.ID,
		map[string]any{"number": "09121234567", "name": "علی", "gender": "male", "birth_date": "1990-05-01",
			"tags": []string{"ویژه", "تهران"}, "features": map[string]any{"score": 42}},
		map[string]any{"number": "09351234567", "name": "مریم", "gender": "female"},
	)
	rows := xlsxRows(t, f.rawGet("/numbers/export?phonebook_id="+strconv.FormatInt(book.ID, 10)), "مخاطبین")
	if len(rows) != 3 || strings.Join(rows[0], ",") != "شماره موبایل,نام,جنسیت,تاریخ تولد,گروه,برچسب‌ها,امتیاز,تاریخ ایجاد (شمسی)" {
		t.Fatalf("header %v", rows)
	}
	if got := strings.Join(rows[2][:7], ","); got != "09121234567,علی,مرد,1990-05-01,صادرات,ویژه، تهران,42" {
		t.Fatalf("row %q", got)
	}
	if got := strings.Join(rows[1][:3], ","); got != "09351234567,مریم,زن" || len(rows[1][7]) != 16 || !strings.HasPrefix(rows[1][7], "14") {
		t.Fatalf("row %v", rows[1])
	}
	// Filters apply; a filter error is an envelope, not a file.
	if rows = xlsxRows(t, f.rawGet("/numbers/export?gender=female"), "مخاطبین"); len(rows) != 2 || rows[1][1] != "مریم" {
		t.Fatalf("filtered export %v", rows)
	}
	f.must(422, "GET", "/numbers/export?gender=x", nil)
	f.must(404, "GET", "/numbers/export?phonebook_id=999999", nil)

	// The sample file has the columns an import maps.
	rows = xlsxRows(t, f.rawGet("/numbers/import/sample"), "مخاطبین")
	if len(rows) != 3 || strings.Join(rows[0], ",") != "شماره موبایل,نام,جنسیت,تاریخ تولد,برچسب‌ها,امتیاز" {
		t.Fatalf("sample %v", rows)
	}
	for _, r := range rows[1:] {
		if _, ok := validate.NormalizeMobile(r[0]); !ok {
			t.Fatalf("sample number %q", r[0])
		}
	}
}

// fileFixture stores a parsed upload file of account with the given rows, as the
// upload pipeline (migration 0006) leaves it: columns, mobile_col and file_rows.
func fileFixture(t testing.TB, e *apitest.Env, account int64, purpose, status string, header []string, rows [][]string) int64 {
	t.Helper()
	ctx := context.Background()
	var exists bool
	if err := e.DB.Pool.QueryRow(ctx, `SELECT to_regclass('file_rows') IS NOT NULL`).Scan(&exists); err != nil || !exists {
		t.Fatalf("the upload pipeline's tables (migration 0006) are missing: %v", err)
	}
	type col struct {
		Index int    `json:"index"`
		Key   string `json:"key"`
		Title string `json:"title"`
	}
	cols := make([]col, len(header))
	for i, h := range header {
		cols[i] = col{Index: i, Key: string(rune('A' + i)), Title: h}
	}
	colsJSON, _ := json.Marshal(cols)
	var id int64
	if err := e.DB.Pool.QueryRow(ctx, `INSERT INTO files (account_id, purpose, name, ext, status, records, valid, columns, mobile_col)
		VALUES ($1, $2, 'contacts.xlsx', 'xlsx', $3, $4, $4, $5, 0) RETURNING id`,
		account, purpose, status, len(rows), colsJSON).Scan(&id); err != nil {
		t.Fatal(err)
	}
	mobiles := make([]string, len(rows))
	cells := make([][]string, len(rows))
	nos := make([]int32, len(rows))
	for i, r := range rows {
		m, ok := validate.NormalizeMobile(r[0])
		if !ok {
			t.Fatalf("fixture row %d: bad number %q", i, r[0])
		}
		mobiles[i], cells[i], nos[i] = m, r, int32(i+2) // row 1 is the header
	}
	if _, err := e.DB.Pool.Exec(ctx, `INSERT INTO file_rows (file_id, row_no, mobile, cells)
		SELECT $1, x.n, x.m, string_to_array(x.c, E'\x1f') FROM unnest($2::int[], $3::text[], $4::text[]) AS x(n, m, c)`,
		id, nos, mobiles, joinCells(cells)); err != nil {
		t.Fatal(err)
	}
	return id
}

// joinCells joins each row's cells with the unit separator, for string_to_array.
func joinCells(rows [][]string) []string {
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = strings.Join(r, "\x1f")
	}
	return out
}

// runTasks runs the pending tasks of a type through the worker's own mux.
func runTasks(t testing.TB, e *apitest.Env, typ string, pub worker.Publisher) int {
	t.Helper()
	w := worker.New(e.Config, slog.New(slog.NewTextHandler(io.Discard, nil)), e.DB.Pool, e.Redis.Client, e.Queue, pub)
	mux := asynq.NewServeMux()
	w.Register(mux)
	tasks, err := e.Inspector.ListPendingTasks(jobs.QueueDefault, asynq.PageSize(1000))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, ti := range tasks {
		if ti.Type != typ {
			continue
		}
		if err := mux.ProcessTask(context.Background(), asynq.NewTask(ti.Type, ti.Payload)); err != nil {
			t.Fatalf("task %s: %v", ti.ID, err)
		}
		n++
	}
	return n
}

func TestContactImport(t *testing.T) {
	f := newContactsFixture(t)
	ctx := context.Background()
	book := f.phonebook("واردشده")
	f.must(201, "POST", "/options", map[string]any{"title_fa": "امتیاز", "title_en": "score", "type": "integer"})
	f.must(201, "POST", "/options", map[string]any{"title_fa": "خاموش", "title_en": "off", "type": "text", "enabled": false})
	// 100,000 rows; 1,000 of their numbers are in the phonebook already, every 97th
	// row has a bad birth date and every 89th a bad score (both: one invalid row).
	const n = 100_000
	f.add(book.ID, map[string]any{"number": "09120000000"}) // row 0's number
	pre := make([]map[string]any, 0, 1000)
	rows := make([][]string, n)
	// skipped and invalid are the first import's figures; later the rows the second
	// import (without mapping) still adds: the invalid ones not in the phonebook yet.
	invalid, skipped, later := 0, 0, 0
	for i := range n {
		mobile := fmt.Sprintf("0912%07d", i)
		birth := []string{"1370/05/12", "1991-08-03", "33453", ""}[i%4]
		score := strconv.Itoa(i)
		if i%97 == 0 {
			birth = "1991-02-30"
		}
		if i%89 == 0 {
			score = "x" + score
		}
		bad, there := i%97 == 0 || i%89 == 0, i == 0 || i%100 == 1
		switch {
		case bad && !there:
			invalid++
			later++
		case bad:
			invalid++
		case there:
			skipped++
		}
		gender := []string{"مرد", "زن", "female", ""}[i%4]
		rows[i] = []string{mobile, fmt.Sprintf("مخاطب %d", i), gender, birth, "واردشده، دسته " + strconv.Itoa(i%3), score}
		if i%100 == 1 {
			pre = append(pre, map[string]any{"number": mobile})
		}
	}
	f.add(book.ID, pre...)
	before := f.members(book.ID)
	file := fileFixture(t, f.e, f.accA, "contacts", "ready", []string{"موبایل", "نام", "جنسیت", "تولد", "برچسب", "امتیاز"}, rows)

	// Requests that cannot start.
	mapping := map[string]any{"name": 1, "gender": 2, "birth_date": 3, "tags": 4, "features": map[string]int{"score": 5}}
	body := func(file, book int64, mapping any) map[string]any {
		return map[string]any{"file_id": file, "phonebook_id": book, "mapping": mapping}
	}
	wantField(t, f.e.Do("POST", pbAPI+"/numbers/import", body(file, book.ID, map[string]any{"name": 9}), f.tokA),
		"mapping.name", phonebook.MsgColumn)
	wantField(t, f.e.Do("POST", pbAPI+"/numbers/import", body(file, book.ID, map[string]any{"features": map[string]int{"off": 1}}), f.tokA),
		"mapping.features.off", phonebook.MsgFeatureDisabled)
	wantField(t, f.e.Do("POST", pbAPI+"/numbers/import", body(0, book.ID, mapping), f.tokA), "file_id", phonebook.MsgFileRequired)
	parsing := fileFixture(t, f.e, f.accA, "contacts", "parsing", []string{"موبایل"}, nil)
	wantField(t, f.e.Do("POST", pbAPI+"/numbers/import", body(parsing, book.ID, mapping), f.tokA), "file_id", phonebook.MsgFileNotReady)
	p2p := fileFixture(t, f.e, f.accA, "peer_to_peer", "ready", []string{"موبایل"}, nil)
	wantField(t, f.e.Do("POST", pbAPI+"/numbers/import", body(p2p, book.ID, map[string]any{}), f.tokA), "file_id", phonebook.MsgFileWrongPurpose)
	f.must(404, "POST", "/numbers/import", body(999999, book.ID, mapping))
	f.must(404, "POST", "/numbers/import", body(file, 999999, mapping))

	r := f.must(202, "POST", "/numbers/import", body(file, book.ID, mapping))
	im := into[phonebook.Import](t, r)
	if im.ID == 0 || im.Status != "running" {
		t.Fatalf("start: %s", r.Raw)
	}

	// The worker's handler, through the worker's mux; its events reach A's socket.
	ws := f.socket()
	start := time.Now()
	if runTasks(t, f.e, jobs.TypeContactImport, f.e.Deps.Live.Publisher()) != 1 {
		t.Fatal("no import task queued")
	}
	took := time.Since(start)
	t.Logf("import of %d file rows: %v (%.0f rows/s)", n, took, n/took.Seconds())
	done := into[phonebook.Import](t, f.must(200, "GET", "/numbers/import/"+strconv.FormatInt(im.ID, 10), nil))
	want := phonebook.Import{ID: im.ID, PhonebookID: book.ID, FileID: file, Status: "done", Total: n, Added: n - invalid - skipped,
		Skipped: skipped, Invalid: invalid, Progress: 100}
	done.Errors, done.Error = nil, ""
	if !reflect.DeepEqual(done, want) {
		t.Fatalf("import\n got %+v\nwant %+v", done, want)
	}
	if got := f.members(book.ID); got != before+want.Added {
		t.Fatalf("members %d, want %d", got, before+want.Added)
	}
	var stored int
	_ = f.e.DB.Pool.QueryRow(ctx, `SELECT count(*) FROM contacts WHERE phonebook_id = $1`, book.ID).Scan(&stored)
	if stored != before+want.Added {
		t.Fatalf("stored %d", stored)
	}
	full := into[phonebook.Import](t, f.must(200, "GET", "/numbers/import/"+strconv.FormatInt(im.ID, 10), nil))
	if len(full.Errors) != 100 || full.Errors[0] != (phonebook.ImportError{Row: 2, Field: "birth_date", Message: phonebook.MsgBirthDate,
		Value: "1991-02-30"}) || full.Errors[1].Field != "features.score" || full.Errors[1].Value != "x89" {
		t.Fatalf("errors sample %+v", full.Errors[:2])
	}
	// Numbers are found at once; names once the search-index task the import
	// queued has run, and until then the list says it is indexing.
	indexing := func(want bool) {
		t.Helper()
		if r := f.must(200, "GET", "/numbers/contact-list?limit=1", nil); r.Meta.Indexing == nil || *r.Meta.Indexing != want {
			t.Fatalf("indexing %s, want %v", r.Raw, want)
		}
	}
	indexing(true)
	lastRow := "search=" + url.QueryEscape("مخاطب 99999") // the file's last row
	if list, _ := f.contacts(lastRow); len(list) != 0 {
		t.Fatalf("a name found before the search index caught up: %+v", list)
	}
	if runTasks(t, f.e, jobs.TypeContactSearch, f.e.Deps.Live.Publisher()) != 1 {
		t.Fatal("no search-index task queued")
	}
	indexing(false)
	if list, _ := f.contacts(lastRow); len(list) != 1 || list[0].Name != "مخاطب 99999" {
		t.Fatalf("a name after the search index caught up: %+v", list)
	}
	// Mapped values, Jalali and Excel dates included.
	for i, wantBirth := range map[int]string{4: "1991-08-03", 5: "1991-08-03", 6: "1991-08-03", 7: ""} {
		list, _ := f.contacts("search=" + fmt.Sprintf("0912%07d", i))
		if len(list) != 1 {
			t.Fatalf("row %d: %+v", i, list)
		}
		c := list[0]
		birth := ""
		if c.BirthDate != nil {
			birth = *c.BirthDate
		}
		wantGender := []string{"male", "female", "female", ""}[i%4]
		wantTags := []string{"واردشده", "دسته " + strconv.Itoa(i%3)}
		if c.Name != fmt.Sprintf("مخاطب %d", i) || birth != wantBirth || c.Gender != wantGender ||
			!reflect.DeepEqual(c.Tags, wantTags) || c.Features["score"] != float64(i) {
			t.Fatalf("row %d: %+v", i, c)
		}
	}
	// Progress reached the browser.
	var last phonebook.Import
	for last.Status != "done" {
		_ = ws.SetReadDeadline(time.Now().Add(5 * time.Second))
		_, msg, err := ws.ReadMessage()
		if err != nil {
			t.Fatalf("no contacts.import event: %v", err)
		}
		var m struct {
			Event string          `json:"event"`
			Data  json.RawMessage `json:"data"`
		}
		if json.Unmarshal(msg, &m) == nil && m.Event == "contacts.import" {
			_ = json.Unmarshal(m.Data, &last)
		}
	}
	if last.Added != want.Added || last.Progress != 100 {
		t.Fatalf("last event %+v", last)
	}

	// A retried task changes nothing.
	if err := f.e.Deps.Phonebooks.RunImport(ctx, im.ID); err != nil {
		t.Fatal(err)
	}
	_ = f.e.DB.Pool.QueryRow(ctx, `SELECT count(*) FROM contacts WHERE phonebook_id = $1`, book.ID).Scan(&stored)
	again := into[phonebook.Import](t, f.must(200, "GET", "/numbers/import/"+strconv.FormatInt(im.ID, 10), nil))
	if stored != before+want.Added || again.Added != want.Added {
		t.Fatalf("retry added rows: %d, %+v", stored, again)
	}
	// Importing the same file again only skips.
	im2 := into[phonebook.Import](t, f.must(202, "POST", "/numbers/import", body(file, book.ID, map[string]any{})))
	runTasks(t, f.e, jobs.TypeContactImport, nil)
	again = into[phonebook.Import](t, f.must(200, "GET", "/numbers/import/"+strconv.FormatInt(im2.ID, 10), nil))
	if again.Added != later || again.Skipped != n-later || again.Invalid != 0 {
		t.Fatalf("second import %+v", again)
	}
	f.must(404, "GET", "/numbers/import/999999", nil)
}

// socket opens A's live socket and waits until it is registered.
func (f *contactsFixture) socket() *websocket.Conn {
	f.t.Helper()
	ws := f.e.Socket(f.tokA)
	if err := ws.WriteMessage(websocket.TextMessage, []byte("9")); err != nil {
		f.t.Fatal(err)
	}
	_ = ws.SetReadDeadline(time.Now().Add(3 * time.Second))
	if _, msg, err := ws.ReadMessage(); err != nil || string(msg) != "9" {
		f.t.Fatalf("ping answer %q %v", msg, err)
	}
	return ws
}

// snapshot is everything of the account's contacts domain, as text.
