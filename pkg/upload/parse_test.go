package upload

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/xuri/excelize/v2"

	"github.com/chapar/chapar/internal/testing/testenv"
)

// events records the published events.
type events struct {
	mu  sync.Mutex
	got []map[string]any
}

func (e *events) Publish(_ context.Context, accountID int64, event string, data any) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	d := data.(map[string]any)
	d["account"], d["event"] = accountID, event
	e.got = append(e.got, d)
	return nil
}

func (e *events) list() []map[string]any {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]map[string]any(nil), e.got...)
}

type parseEnv struct {
	t       *testing.T
	db      testenv.Database
	svc     *Service
	ev      *events
	account int64
}

func newParseEnv(t *testing.T) *parseEnv {
	t.Helper()
	d := testenv.Postgres(t)
	e := &parseEnv{t: t, db: d, ev: &events{}}
	e.svc = New(d.Pool, NewDisk(t.TempDir()), nil, nil, nil)
	e.svc.Events = e.ev
	if err := d.Pool.QueryRow(context.Background(), `INSERT INTO accounts (name) VALUES ('آزمون') RETURNING id`).Scan(&e.account); err != nil {
		t.Fatal(err)
	}
	return e
}

// add stores a file's bytes and records it as parsing.
func (e *parseEnv) add(name, purpose string, data []byte) int64 {
	e.t.Helper()
	ctx := context.Background()
	key := fmt.Sprintf("%d/%s", e.account, NewKey())
	if _, err := e.svc.store.Put(ctx, key, bytes.NewReader(data)); err != nil {
		e.t.Fatal(err)
	}
	var id int64
	err := e.db.Pool.QueryRow(ctx, `INSERT INTO files (account_id, purpose, name, ext, size, storage_key, status)
		VALUES ($1, $2, $3, $4, $5, $6, 'parsing') RETURNING id`, e.account, purpose, name,
		strings.TrimPrefix(filepath.Ext(name), "."), len(data), key).Scan(&id)
	if err != nil {
		e.t.Fatal(err)
	}
	return id
}

func (e *parseEnv) parse(id int64) Detail {
	e.t.Helper()
	if err := e.svc.Parse(context.Background(), id); err != nil {
		e.t.Fatalf("parse: %v", err)
	}
	d, err := e.svc.Get(context.Background(), e.account, id)
	if err != nil {
		e.t.Fatal(err)
	}
	return d
}

func (e *parseEnv) count(table string, id int64) int {
	e.t.Helper()
	var n int
	if err := e.db.Pool.QueryRow(context.Background(), `SELECT count(*) FROM `+table+` WHERE file_id = $1`, id).Scan(&n); err != nil {
		e.t.Fatal(err)
	}
	return n
}

func readFile(t testing.TB, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestParseReport(t *testing.T) {
	e := newParseEnv(t)
	ctx := context.Background()
	// 989351234567 is on the send blacklist, 989201234567 opted out with «11»; a
	// receive-blacklisted number is still sendable.
	_, err := e.db.Pool.Exec(ctx, `INSERT INTO blacklist (account_id, kind, mobile) VALUES
		($1, 'send', '989351234567'), ($1, 'cancel11', '989201234567'), ($1, 'receive', '989121234567')`, e.account)
	if err != nil {
		t.Fatal(err)
	}
	id := e.add("numbers.xlsx", PurposeSend, readFile(t, "testdata/libreoffice-numbers.xlsx"))
	d := e.parse(id)
	if d.Status != StatusReady || d.Error != "" || d.Progress != 100 || d.ParsedAt == nil {
		t.Fatalf("status %+v", d.File)
	}
	if d.Records != 7 || d.Valid != 4 || d.Invalid != 2 || d.Duplicates != 1 || d.Blacklisted != 2 {
		t.Fatalf("counts %+v", d.File)
	}
	// Per operator: 989121234567 and 989127776655 (MCI); the Irancell and Rightel
	// numbers are blacklisted.
	if !reflect.DeepEqual(d.PerOperator, []OperatorCount{{Operator: "mci", Recipients: 2}}) {
		t.Fatalf("per operator %+v", d.PerOperator)
	}
	if d.MobileCol == nil || *d.MobileCol != 1 || d.TextCol != nil || len(d.Columns) != 3 || d.Columns[1] != (Column{1, "B", "شماره موبایل"}) {
		t.Fatalf("columns %+v mobile %v text %v", d.Columns, d.MobileCol, d.TextCol)
	}
	want := []ErrorView{{8, KindFormat, MsgRowFormat, "021-88776655"}, {9, KindEmpty, MsgRowEmpty, ""}}
	if !reflect.DeepEqual(d.ErrorsSample, want) {
		t.Fatalf("errors %+v", d.ErrorsSample)
	}
	rows, err := e.db.Pool.Query(ctx, `SELECT row_no, mobile, cells FROM file_rows WHERE file_id = $1 ORDER BY row_no`, id)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for rows.Next() {
		var no int
		var m string
		var cells []string
		if err := rows.Scan(&no, &m, &cells); err != nil {
			t.Fatal(err)
		}
		got = append(got, fmt.Sprintf("%d %s %s", no, m, strings.Join(cells, "|")))
	}
	wantRows := []string{"2 989121234567 علی|9121234567|250000", "3 989351234567 رضا|9351234567|120000",
		"4 989201234567 مینا|989201234567|5000", "5 989127776655 سارا|۰۹۱۲۷۷۷۶۶۵۵|100"}
	if !reflect.DeepEqual(got, wantRows) {
		t.Fatalf("file rows\n%q\nwant\n%q", got, wantRows)
	}
	ev := e.ev.list()
	if last := ev[len(ev)-1]; last["event"] != "file.progress" || last["status"] != StatusReady || last["progress"] != 100 ||
		last["records"] != 7 || last["id"] != id || last["account"] != e.account {
		t.Fatalf("final event %v", last)
	}

	// A ready file is left alone; a retry of a parse starts over without duplicates.
	if err := e.svc.Parse(ctx, id); err != nil {
		t.Fatal(err)
	}
	if _, err := e.db.Pool.Exec(ctx, `UPDATE files SET status = 'parsing' WHERE id = $1`, id); err != nil {
		t.Fatal(err)
	}
	if d2 := e.parse(id); d2.Valid != 4 || e.count("file_rows", id) != 4 || e.count("file_row_errors", id) != 2 {
		t.Fatalf("second parse: %+v rows %d", d2.File, e.count("file_rows", id))
	}

	// The row errors as xlsx.
	var buf bytes.Buffer
	if err := e.svc.WriteErrorsXLSX(ctx, e.account, id, &buf); err != nil {
		t.Fatal(err)
	}
	x, err := excelize.OpenReader(&buf)
	if err != nil {
		t.Fatal(err)
	}
	sheetRows, _ := x.GetRows(x.GetSheetList()[0])
	wantSheet := [][]string{{"ردیف", "مقدار", "خطا"}, {"8", "021-88776655", MsgRowFormat}, {"9", "", MsgRowEmpty}}
	if !reflect.DeepEqual(sheetRows, wantSheet) {
		t.Fatalf("errors xlsx %q", sheetRows)
	}
	// Another account sees nothing.
	if err := e.svc.WriteErrorsXLSX(ctx, e.account+1, id, &buf); err != errNotFound {
		t.Fatalf("another account: %v", err)
	}
	if _, err := e.svc.Get(ctx, e.account+1, id); err != errNotFound {
		t.Fatalf("another account: %v", err)
	}
	// Closing the account takes the file, its rows and its errors with it.
	if _, err := e.db.Pool.Exec(ctx, `DELETE FROM accounts WHERE id = $1`, e.account); err != nil {
		t.Fatal(err)
	}
	if n, m := e.count("file_rows", id), e.count("file_row_errors", id); n != 0 || m != 0 {
		t.Fatalf("%d rows and %d errors outlived their account", n, m)
	}
}

func TestParsePeerToPeerParts(t *testing.T) {
	e := newParseEnv(t)
	_, err := e.db.Pool.Exec(context.Background(), `INSERT INTO blacklist (account_id, kind, mobile) VALUES ($1, 'send', '989351234567')`, e.account)
	if err != nil {
		t.Fatal(err)
	}
	p := writeXLSX(t, [][]any{
		{"شماره", "پیام"},
		{9121234567, "سلام"},
		{9121234567, strings.Repeat("b", 200)}, // two GSM-7 parts; with the footer 206 UCS-2 characters, four
		{9351234567, "سلام"},                   // blacklisted
		{9351234567, "دوباره"},                 // blacklisted
		{9121234567, "سلام"},                   // duplicate pair
	})
	id := e.add("p2p.xlsx", PurposePeerToPeer, readFile(t, p))
	d := e.parse(id)
	if d.Status != StatusReady || d.Valid != 4 || d.Duplicates != 1 || d.Blacklisted != 2 || d.TextCol == nil || *d.TextCol != 1 {
		t.Fatalf("report %+v text %v", d.File, d.TextCol)
	}
	if !reflect.DeepEqual(d.PerOperator, []OperatorCount{{"mci", 2, 3, 5}}) {
		t.Fatalf("per operator %+v", d.PerOperator)
	}
}

func TestParseFailures(t *testing.T) {
	e := newParseEnv(t)
	ctx := context.Background()
	for _, c := range []struct {
		name, file, data string
		want             string
		errors           int
	}{
		{"empty", "e.csv", "\n\n", MsgEmpty, 0},
		{"not xlsx", "x.xlsx", "PK but not really", MsgFormat, 0},
		{"no mobile column", "n.csv", "نام,شهر\nعلی,تهران\n", MsgNoMobileCol, 0},
		{"no valid number", "v.txt", "0211234567\n9.89121E+11\n", MsgNoValid, 2},
	} {
		id := e.add(c.file, PurposeSend, []byte(c.data))
		d := e.parse(id)
		if d.Status != StatusFailed || d.Error != c.want || d.Progress != 100 {
			t.Errorf("%s: %s %q", c.name, d.Status, d.Error)
		}
		if n := e.count("file_row_errors", id); n != c.errors || e.count("file_rows", id) != 0 {
			t.Errorf("%s: %d row errors", c.name, n)
		}
	}
	// A stored object that vanished: outside asynq every attempt is the last one.
	id := e.add("gone.csv", PurposeSend, []byte("09121234567\n"))
	if _, err := e.db.Pool.Exec(ctx, `UPDATE files SET storage_key = 'nowhere/x.csv' WHERE id = $1`, id); err != nil {
		t.Fatal(err)
	}
	if err := e.svc.Parse(ctx, id); err == nil {
		t.Fatal("a missing object parsed")
	}
	if d, _ := e.svc.Get(ctx, e.account, id); d.Status != StatusFailed || d.Error != MsgProcessing {
		t.Fatalf("missing object: %s %q", d.Status, d.Error)
	}
}

// TestParseLimitAndProgress parses a file of a million and one rows: it ends failed
// with nothing written; on the way it reports progress.
func TestParseLimitAndProgress(t *testing.T) {
	if testing.Short() {
		t.Skip("a million rows")
	}
	e := newParseEnv(t)
	e.svc.ProgressEvery = 0
	id := e.add("big.csv", PurposeSend, readFile(t, writeNumbersCSV(t, MaxRecords+1)))
	d := e.parse(id)
	if d.Status != StatusFailed || d.Error != MsgTooManyRows || e.count("file_rows", id) != 0 || e.count("file_row_errors", id) != 0 {
		t.Fatalf("%s %q rows %d", d.Status, d.Error, e.count("file_rows", id))
	}
	ev := e.ev.list()
	last, prev := -1, 0
	for _, x := range ev[:len(ev)-1] {
		p := x["progress"].(int)
		if x["status"] != StatusParsing || p <= last || p > 99 || x["records"].(int) <= prev {
			t.Fatalf("progress events %v", ev)
		}
		last, prev = p, x["records"].(int)
	}
	if len(ev) < 20 || ev[len(ev)-1]["status"] != StatusFailed {
		t.Fatalf("%d events, last %v", len(ev), ev[len(ev)-1])
	}
	b, _ := json.Marshal(ev[len(ev)-1])
	t.Logf("%d progress events, last %s", len(ev), b)
}

func TestSamplesParse(t *testing.T) {
	for purpose, want := range map[string]int{PurposeSend: 3, PurposePeerToPeer: 2, PurposeKeyword: 2, PurposeContacts: 2} {
		var buf bytes.Buffer
		if err := WriteSample(purpose, &buf); err != nil {
			t.Fatal(err)
		}
		scanAs := purpose
		if purpose == PurposeKeyword {
			scanAs = PurposeSend
		}
		res, err := scanPath(t, writeFile(t, "s.xlsx", buf.Bytes()), scanAs, 0)
		if err != nil || res.counts.Valid != want || res.counts.Invalid != 0 || res.sc.header == nil {
			t.Errorf("%s: %v %+v", purpose, err, res.counts)
		}
	}
	if err := WriteSample("nope", &bytes.Buffer{}); err == nil {
		t.Fatal("unknown sample")
	}
}
