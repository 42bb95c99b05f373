package phonebook

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/chapar/chapar/internal/testing/testenv"
	"github.com/chapar/chapar/pkg/acl"
)

func TestParseFileDate(t *testing.T) {
	for in, want := range map[string]string{
		"1403/01/01":  "2024-03-20",
		"1370/05/12":  "1991-08-03",
		"۱۳۷۰/۰۵/۱۲":  "1991-08-03",
		"1370-5-12":   "1991-08-03",
		"13700512":    "1991-08-03",
		"1399/12/30":  "2021-03-20", // a leap Esfand
		"1400/12/29":  "2022-03-20",
		"1357/11/22":  "1979-02-11",
		"1991-08-03":  "1991-08-03",
		"1991/8/3":    "1991-08-03",
		"19910803":    "1991-08-03",
		"33453":       "1991-08-03", // an Excel date cell read raw
		"33453.75":    "1991-08-03",
		"2024-02-29":  "2024-02-29",
		" 2000-01-01": "2000-01-01",
	} {
		d, ok := parseFileDate(in)
		if !ok || formatDate(d) != want {
			t.Errorf("parseFileDate(%q) = %v %v, want %s", in, formatDate(d), ok, want)
		}
	}
	for _, in := range []string{"", "1400/12/30", "1403/07/31", "1403/13/01", "1991-02-30", "2023-02-29", "99/01/01",
		"0", "1234567", "abc", "1370/05/12/1", "1370/005/12", "12.5.1370"} {
		if d, ok := parseFileDate(in); ok {
			t.Errorf("parseFileDate(%q) = %v, want rejected", in, d)
		}
	}
}

func TestBirthDate(t *testing.T) {
	now := time.Date(2024, 5, 1, 22, 0, 0, 0, time.UTC) // already 2 May in Tehran
	for in, ok := range map[string]bool{"2024-05-02": true, "2024-05-03": false, "1900-01-01": true, "1899-12-31": false,
		"1370/05/12": false, "۱۹۹۰-۰۱-۰۱": true} {
		if _, got := birthDate(in, false, now); got != ok {
			t.Errorf("birthDate(%q) = %v, want %v", in, got, ok)
		}
	}
	if _, ok := birthDate("1370/05/12", true, now); !ok {
		t.Error("a Jalali birth date in a file was refused")
	}
}

func TestSearchDigits(t *testing.T) {
	for in, want := range map[string]struct {
		digits string
		prefix bool
	}{"0912": {"98912", true}, "+98 912": {"98912", true}, "0098912": {"98912", true}, "912-12": {"91212", false},
		"۰۹۱۲": {"98912", true}, "1234": {"1234", false}, "98912": {"98912", false}, "+1": {"1", false}} {
		if got, prefix, ok := searchDigits(in); !ok || got != want.digits || prefix != want.prefix {
			t.Errorf("searchDigits(%q) = %q %v, want %+v", in, got, prefix, want)
		}
	}
	for _, in := range []string{"علی", "09a", "12+3", "", " - "} {
		if got, _, ok := searchDigits(in); ok {
			t.Errorf("searchDigits(%q) = %q, want not a number", in, got)
		}
	}
}

func TestFeatureValues(t *testing.T) {
	integer, date, text := &Feature{Type: TypeInteger}, &Feature{Type: TypeDate}, &Feature{Type: TypeText}
	for _, c := range []struct {
		f       *Feature
		raw     string
		want    any
		wantMsg string
	}{
		{integer, `12`, int64(12), ""},
		{integer, `"۱۲"`, int64(12), ""},
		{integer, `"-7"`, int64(-7), ""},
		{integer, `"1,200"`, int64(1200), ""},
		{integer, `"+7"`, nil, MsgFeatureInteger},
		{integer, `1.5`, nil, MsgFeatureInteger},
		{integer, `"12.0"`, nil, MsgFeatureInteger},
		{integer, `"99999999999999999999"`, nil, MsgFeatureInteger},
		{integer, `true`, nil, MsgFeatureInteger},
		{integer, `null`, nil, ""},
		{integer, `""`, nil, ""},
		{date, `"2024-01-31"`, "2024-01-31", ""},
		{date, `"2024-02-30"`, nil, MsgFeatureDate},
		{date, `"1402/01/01"`, nil, MsgFeatureDate},
		{date, `20240101`, nil, MsgFeatureDate},
		{text, `" سلام "`, "سلام", ""},
		{text, `42`, "42", ""},
		{text, `["x"]`, nil, MsgFeatureText},
	} {
		got, msg := c.f.apiValue(json.RawMessage(c.raw))
		if got != c.want || msg != c.wantMsg {
			t.Errorf("%s %s = %v %q, want %v %q", c.f.Type, c.raw, got, msg, c.want, c.wantMsg)
		}
	}
	// Files are read leniently.
	if v, msg := integer.value("12.0", true); v != int64(12) || msg != "" {
		t.Errorf("12.0 in a file: %v %q", v, msg)
	}
	if v, msg := date.value("1402/01/01", true); v != "2023-03-21" || msg != "" {
		t.Errorf("a Jalali date in a file: %v %q", v, msg)
	}
}

func TestParseGender(t *testing.T) {
	for in, want := range map[string]string{"male": "male", "Female": "female", "مرد": "male", "خانم": "female", " زن ": "female", "": ""} {
		if got, ok := parseGender(in); !ok || got != want {
			t.Errorf("parseGender(%q) = %q %v", in, got, ok)
		}
	}
	if _, ok := parseGender("other"); ok {
		t.Error("an unknown gender was accepted")
	}
}

// TestImportResumes: a run that stopped after its first chunk resumes after it,
// and neither a repeated chunk nor a second run adds a row twice.
// importFixture is an account with a phonebook, a ready file of nine rows (number,
// name) and an import of it not started yet; the service takes four rows a chunk.
type importFixture struct {
	d                   testenv.Database
	s                   *Service
	account, book, file int64
	im                  Import
}

func newImportFixture(t *testing.T) *importFixture {
	t.Helper()
	ctx := context.Background()
	f := &importFixture{d: testenv.Postgres(t)}
	err := f.d.Pool.QueryRow(ctx, `WITH a AS (INSERT INTO accounts (name) VALUES ('x') RETURNING id),
		p AS (INSERT INTO phonebooks (account_id, name, code) SELECT id, 'p', 'p' FROM a RETURNING id, account_id),
		f AS (INSERT INTO files (account_id, purpose, status, columns, mobile_col) SELECT account_id, 'contacts', 'ready',
			'[{"index":0,"key":"A","title":""},{"index":1,"key":"B","title":""}]', 0 FROM p RETURNING id)
		SELECT (SELECT id FROM a), (SELECT id FROM p), (SELECT id FROM f)`).Scan(&f.account, &f.book, &f.file)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.d.Pool.Exec(ctx, `INSERT INTO file_rows (file_id, row_no, mobile, cells)
		SELECT $1, g, '98912000000' || g, ARRAY['0912000000' || g, 'نام ' || g] FROM generate_series(1, 9) g`, f.file); err != nil {
		t.Fatal(err)
	}
	f.s = New(f.d.Pool, nil, nil)
	f.s.chunkRows = 4
	name := 1
	f.im = Import{PhonebookID: f.book, FileID: f.file, Status: ImportRunning, Total: 9, accountID: f.account,
		mapping: ImportMapping{Name: &name}}
	if err := f.d.Pool.QueryRow(ctx, `INSERT INTO contact_imports (account_id, phonebook_id, file_id, total, mapping)
		VALUES ($1, $2, $3, 9, '{"name": 1}') RETURNING id`, f.account, f.book, f.file).Scan(&f.im.ID); err != nil {
		t.Fatal(err)
	}
	return f
}

// firstChunk plans the import and stores its first chunk (rows 1–4).
func (f *importFixture) firstChunk(t *testing.T) *importPlan {
	t.Helper()
	ctx := context.Background()
	plan, err := f.s.newImportPlan(ctx, f.im)
	if err != nil {
		t.Fatal(err)
	}
	chunk, _ := f.s.fileRows(ctx, f.file, 0)
	if ok, err := f.s.importChunk(ctx, &f.im, plan, chunk); !ok || err != nil {
		t.Fatalf("first chunk: %v %v", ok, err)
	}
	return plan
}

// check compares the import's figures and the phonebook's rows and members.
func (f *importFixture) check(t *testing.T, added, skipped, members int) {
	t.Helper()
	got, err := f.s.ImportState(context.Background(), f.account, f.im.ID)
	if err != nil || got.Status != ImportDone || got.Added != added || got.Skipped != skipped || got.Progress != 100 {
		t.Fatalf("import %+v %v, want added %d skipped %d", got, err, added, skipped)
	}
	var rows, count int
	_ = f.d.Pool.QueryRow(context.Background(), `SELECT (SELECT count(*) FROM contacts WHERE phonebook_id = $1),
		(SELECT members FROM phonebooks WHERE id = $1)`, f.book).Scan(&rows, &count)
	if rows != members || count != members {
		t.Fatalf("rows %d, members %d, want %d", rows, count, members)
	}
}

// TestImportSurprises: numbers added to the phonebook while an import runs are
// skipped, whether the member count gives them away or not.
func TestImportSurprises(t *testing.T) {
	ctx := context.Background()
	f := newImportFixture(t)
	a := Actor{Identity: acl.Identity{AccountID: f.account}}
	plan := f.firstChunk(t)
	// Someone adds row 6's number: the member count tells.
	num := func(row int) *Text { n := Text("0912000000" + strconv.Itoa(row)); return &n }
	if _, err := f.s.AddContacts(ctx, a, f.book, []ContactInput{{Number: num(6)}}); err != nil {
		t.Fatal(err)
	}
	chunk, _ := f.s.fileRows(ctx, f.file, f.im.lastRow)
	if ok, err := f.s.importChunk(ctx, &f.im, plan, chunk); !ok || err != nil || !plan.probe {
		t.Fatalf("second chunk: %v %v, probe %v", ok, err, plan.probe)
	}
	// A new run (a retry) knows rows 1–8. Someone deletes row 1's contact and adds
	// row 9's: the count stays, the copy meets row 9, and the chunk is retried.
	plan, err := f.s.newImportPlan(ctx, f.im)
	if err != nil || len(plan.known) != 8 || plan.probe {
		t.Fatalf("plan %+v %v", plan, err)
	}
	var first int64
	_ = f.d.Pool.QueryRow(ctx, `SELECT id FROM contacts WHERE mobile = '989120000001'`).Scan(&first)
	if _, err := f.s.DeleteContacts(ctx, a, []int64{first}); err != nil {
		t.Fatal(err)
	}
	if _, err := f.s.AddContacts(ctx, a, f.book, []ContactInput{{Number: num(9)}}); err != nil {
		t.Fatal(err)
	}
	if err := f.s.importRows(ctx, &f.im, plan); err != nil || !plan.probe {
		t.Fatalf("rest: %v, probe %v", err, plan.probe)
	}
	f.check(t, 7, 2, 8)
}

// TestImportResumes: a run that stopped after its first chunk resumes after it,
// and neither a repeated chunk nor a second run adds a row twice.
func TestImportResumes(t *testing.T) {
	ctx := context.Background()
	f := newImportFixture(t)
	d, s, account, book, file, im := f.d, f.s, f.account, f.book, f.file, f.im
	plan, err := s.newImportPlan(ctx, im)
	if err != nil {
		t.Fatal(err)
	}
	chunk, err := s.fileRows(ctx, file, 0)
	if err != nil || len(chunk) != 4 {
		t.Fatalf("first chunk %d %v", len(chunk), err)
	}
	stale := im // a second worker that read the same state
	if ok, err := s.importChunk(ctx, &im, plan, chunk); !ok || err != nil {
		t.Fatalf("first chunk: %v %v", ok, err)
	}
	if ok, err := s.importChunk(ctx, &stale, plan, chunk); ok || err != nil {
		t.Fatalf("the same chunk again: %v %v", ok, err)
	}
	// The run "crashed" here; the task's retry resumes.
	if err := s.RunImport(ctx, im.ID); err != nil {
		t.Fatal(err)
	}
	if err := s.RunImport(ctx, im.ID); err != nil {
		t.Fatal(err)
	}
	got, err := s.ImportState(ctx, account, im.ID)
	if err != nil || got.Status != ImportDone || got.Added != 9 || got.Skipped != 0 || got.Progress != 100 {
		t.Fatalf("import %+v %v", got, err)
	}
	var sample string
	_ = d.Pool.QueryRow(ctx, `SELECT errors::text FROM contact_imports WHERE id = $1`, im.ID).Scan(&sample)
	if sample != "[]" {
		t.Fatalf("errors of a clean import: %s", sample)
	}
	var rows, members int
	_ = d.Pool.QueryRow(ctx, `SELECT (SELECT count(*) FROM contacts WHERE phonebook_id = $1),
		(SELECT members FROM phonebooks WHERE id = $1)`, book).Scan(&rows, &members)
	if rows != 9 || members != 9 {
		t.Fatalf("rows %d members %d", rows, members)
	}
	// The file is gone: a new import of it fails with a reason.
	if _, err := d.Pool.Exec(ctx, `DELETE FROM files WHERE id = $1`, file); err != nil {
		t.Fatal(err)
	}
	var again int64
	_ = d.Pool.QueryRow(ctx, `INSERT INTO contact_imports (account_id, phonebook_id, file_id) VALUES ($1, $2, $3) RETURNING id`,
		account, book, file).Scan(&again)
	if err := s.RunImport(ctx, again); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.ImportState(ctx, account, again); got.Status != ImportFailed || got.Error != MsgImportFileGone {
		t.Fatalf("import of a deleted file %+v", got)
	}
	// Deleting the phonebook deletes its imports.
	a := Actor{Identity: acl.Identity{AccountID: account}}
	if _, err := s.DeletePhonebooks(ctx, a, []int64{book}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.ImportState(ctx, account, im.ID); err == nil {
		t.Fatal("an import outlived its phonebook")
	}
	_ = d.Pool.QueryRow(ctx, `SELECT count(*) FROM contacts WHERE account_id = $1`, account).Scan(&rows)
	if rows != 0 {
		t.Fatalf("%d contacts outlived their phonebook", rows)
	}
	// An account's deletion cascades to its phonebooks, and so to their contacts.
	if _, err := d.Pool.Exec(ctx, `WITH p AS (INSERT INTO phonebooks (account_id, name, code) VALUES ($1, 'q', 'q') RETURNING id)
		INSERT INTO contacts (account_id, phonebook_id, mobile) SELECT $1, id, '989120000001' FROM p`, account); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Pool.Exec(ctx, `DELETE FROM accounts WHERE id = $1`, account); err != nil {
		t.Fatal(err)
	}
	_ = d.Pool.QueryRow(ctx, `SELECT count(*) FROM contacts WHERE account_id = $1`, account).Scan(&rows)
	if rows != 0 {
		t.Fatalf("%d contacts outlived their account", rows)
	}
}

func TestNumberPrefix(t *testing.T) {
	for in, want := range map[string]string{
		"0912": "98912", "۰۹۱۲": "98912", "٠٩١٢": "98912", "98912": "98912", "۹۸۹۱۲": "98912", "+98 912": "98912",
		"0098912": "98912", "912": "98912", "0912-123 45": "9891212345", "09121234567": "989121234567", "9": "989",
	} {
		if got, ok := numberPrefix(in); !ok || got != want {
			t.Errorf("numberPrefix(%q) = %q %v, want %q", in, got, ok, want)
		}
	}
	// Digits no number starts with, another country's code and words are names.
	for _, in := range []string{"1234", "4444", "+1 202", "00123", "علی", "09a", "", " - ", "12+3"} {
		if got, ok := numberPrefix(in); ok {
			t.Errorf("numberPrefix(%q) = %q, want a name", in, got)
		}
	}
	for in, want := range map[string]string{"98912": "98913", "989": "99", "98919": "9892", "99": "", "": ""} {
		if got := nextPrefix(in); got != want {
			t.Errorf("nextPrefix(%q) = %q, want %q", in, got, want)
		}
	}
}

// names lists the names of the account's contacts a search finds.
func (f *importFixture) names(t *testing.T, search string) string {
	t.Helper()
	list, _, err := f.s.Contacts(context.Background(), f.account, Filter{Search: search, Page: Page{Page: 1, Limit: 100}})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, c := range list {
		out = append(out, c.Name)
	}
	return strings.Join(out, "|")
}

// indexing asserts the account's search index state.
func (f *importFixture) indexing(t *testing.T, want bool) {
	t.Helper()
	if got, err := f.s.Indexing(context.Background(), f.account); err != nil || got != want {
		t.Fatalf("indexing %v %v, want %v", got, err, want)
	}
}

// TestSearchFollowsImport: an import's contacts are found by number at once and by
// name once the search-index task has run, a batch at a time, during the import and
// after it; the account is indexing until then.
func TestSearchFollowsImport(t *testing.T) {
	ctx := context.Background()
	f := newImportFixture(t)
	f.s.indexBatch = 2
	f.indexing(t, true) // from the import's creation
	f.firstChunk(t)
	// Half-way: the task indexes what was committed, and the import stays pending.
	if n, err := f.s.IndexImport(ctx, f.im.ID); err != nil || n != 4 {
		t.Fatalf("index during the import: %d %v", n, err)
	}
	f.indexing(t, true)
	if got := f.names(t, "نام 3"); got != "نام 3" {
		t.Fatalf("a contact of the first chunk: %q", got)
	}
	if err := f.s.RunImport(ctx, f.im.ID); err != nil {
		t.Fatal(err)
	}
	f.indexing(t, true)
	// Numbers are found at once, names not yet.
	if got := f.names(t, "۰۹۱۲۰۰۰۰۰۰۷"); got != "نام 7" {
		t.Fatalf("number of an unindexed contact: %q", got)
	}
	if got := f.names(t, "نام 7"); got != "" {
		t.Fatalf("an unindexed name was found: %q", got)
	}
	// A contact moved to another phonebook before the task reads it is indexed by
	// the move (the task reads the import's phonebook).
	a := Actor{Identity: acl.Identity{AccountID: f.account}}
	other, err := f.s.CreatePhonebook(ctx, a, PhonebookInput{Name: "دیگر"})
	if err != nil {
		t.Fatal(err)
	}
	list, _, _ := f.s.Contacts(ctx, f.account, Filter{Search: "09120000008", Page: Page{Page: 1, Limit: 10}})
	if _, err := f.s.UpdateContact(ctx, a, list[0].ID, other.ID, ContactInput{}); err != nil {
		t.Fatal(err)
	}
	if got := f.names(t, "نام 8"); got != "نام 8" {
		t.Fatalf("a moved contact: %q", got)
	}
	if n, err := f.s.IndexImport(ctx, f.im.ID); err != nil || n != 4 {
		t.Fatalf("index after the import: %d %v", n, err)
	}
	f.indexing(t, false)
	if got := f.names(t, "نام 7"); got != "نام 7" {
		t.Fatalf("an indexed name: %q", got)
	}
	if got := f.names(t, "نام"); strings.Count(got, "|") != 8 {
		t.Fatalf("every imported name: %q", got)
	}
	if n, err := f.s.IndexImport(ctx, f.im.ID); err != nil || n != 0 {
		t.Fatalf("an import no longer pending: %d %v", n, err)
	}
	// A name search alone is counted in contact_search, which follows the move.
	for book, want := range map[int64]int64{0: 9, f.book: 8, other.ID: 1} {
		list, total, err := f.s.Contacts(ctx, f.account, Filter{Search: "نام", PhonebookID: book, Page: Page{Page: 1, Limit: 1}})
		if err != nil || len(list) != 1 || total != want {
			t.Fatalf("phonebook %d: %d contacts of %d, want %d: %v", book, len(list), total, want, err)
		}
	}
}

// TestSearchFollowsWrites: contacts added, renamed, moved and deleted through the
// service (not an import) are searchable as soon as the write commits.
func TestSearchFollowsWrites(t *testing.T) {
	ctx := context.Background()
	f := newImportFixture(t)
	a := Actor{Identity: acl.Identity{AccountID: f.account}}
	text := func(s string) *Text { v := Text(s); return &v }
	str := func(s string) *string { return &s }
	if _, err := f.s.AddContacts(ctx, a, f.book, []ContactInput{{Number: text("09351112233"), Name: str("مینا کریمی")},
		{Number: text("09351112234")}}); err != nil {
		t.Fatal(err)
	}
	if got := f.names(t, "کریمی"); got != "مینا کریمی" {
		t.Fatalf("an added contact: %q", got)
	}
	if got := f.names(t, "0935"); got != "|مینا کریمی" {
		t.Fatalf("numbers by prefix: %q", got)
	}
	list, _, _ := f.s.Contacts(ctx, f.account, Filter{Search: "09351112234", Page: Page{Page: 1, Limit: 10}})
	if len(list) != 1 {
		t.Fatalf("the nameless contact by number: %+v", list)
	}
	nameless := list[0].ID
	list, _, _ = f.s.Contacts(ctx, f.account, Filter{Search: "کریمی", Page: Page{Page: 1, Limit: 10}})
	named := list[0].ID
	if _, err := f.s.UpdateContact(ctx, a, named, 0, ContactInput{Name: str("مینا رضایی")}); err != nil {
		t.Fatal(err)
	}
	if _, err := f.s.UpdateContact(ctx, a, nameless, 0, ContactInput{Name: str("سارا رضایی")}); err != nil {
		t.Fatal(err)
	}
	if got, old := f.names(t, "رضایی"), f.names(t, "کریمی"); got != "سارا رضایی|مینا رضایی" || old != "" {
		t.Fatalf("renamed: %q, the old name: %q", got, old)
	}
	if _, err := f.s.UpdateContact(ctx, a, nameless, 0, ContactInput{Name: str("")}); err != nil {
		t.Fatal(err)
	}
	if _, err := f.s.DeleteContacts(ctx, a, []int64{named}); err != nil {
		t.Fatal(err)
	}
	var left int
	if err := f.d.Pool.QueryRow(ctx, `SELECT count(*) FROM contact_search WHERE account_id = $1`, f.account).Scan(&left); err != nil || left != 0 {
		t.Fatalf("%d names left after the rename to nothing and the delete: %v", left, err)
	}
}

// TestCopyContacts: the binary COPY stores every field as the row has it: dates
// (before 2000 too), empty and full tag lists, features of each type with JSON's
// special characters, and no birth date as NULL.
func TestCopyContacts(t *testing.T) {
	ctx := context.Background()
	f := newImportFixture(t)
	rows := []contactRow{
		{Mobile: "989121111111", Name: "علی \"کریمی\"", Gender: GenderMale, birth: time.Date(1991, 8, 3, 0, 0, 0, 0, tehran),
			TagIDs: []int64{7, 1 << 40}, Features: map[string]any{"3": int64(-42), "4": "2024-02-29", "5": "a\"b\\c\n\td\x01 «ج»"}},
		{Mobile: "989122222222", TagIDs: []int64{}},
		{Mobile: "989123333333", birth: time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC), Features: map[string]any{}},
	}
	err := pgx.BeginFunc(ctx, f.d.Pool, func(tx pgx.Tx) error {
		n, err := copyContacts(ctx, tx, &f.im, rows, []int{0, 1, 2})
		if n != 3 {
			t.Errorf("copied %d", n)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	type stored struct {
		Mobile, Name, Gender, Birth, Tags, Features string
		Account, Book, Import                       int64
	}
	want := []stored{
		{"989121111111", "علی \"کریمی\"", "male", "1991-08-03", "{7,1099511627776}",
			`{"3": -42, "4": "2024-02-29", "5": "a\"b\\c\n\td\u0001 «ج»"}`, f.account, f.book, f.im.ID},
		{"989122222222", "", "", "", "{}", "{}", f.account, f.book, f.im.ID},
		{"989123333333", "", "", "2000-01-01", "{}", "{}", f.account, f.book, f.im.ID},
	}
	res, _ := f.d.Pool.Query(ctx, `SELECT mobile, name, gender, coalesce(birth_date::text, ''), tag_ids::text, features::text,
		account_id, phonebook_id, import_id FROM contacts ORDER BY mobile`)
	got, err := pgx.CollectRows(res, pgx.RowToStructByPos[stored])
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("rows %+v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("row %d\n got %+v\nwant %+v", i, got[i], want[i])
		}
	}
}

func TestHasArabicLetters(t *testing.T) {
	for _, s := range []string{"علي", "كريم", "مصطفى", "ي", "abc ك"} {
		if !hasArabicLetters(s) {
			t.Errorf("%q has an Arabic letter", s)
		}
	}
	for _, s := range []string{"", "علی کریمی", "مصطفی", "abc", "لمنهو", "\xd9"} {
		if hasArabicLetters(s) {
			t.Errorf("%q has none", s)
		}
	}
}

// TestImportPipedSurprises: chunks stored two at a time still add every row
// once when the plan is wrong under them. A number added after the run planned
// fails the piped chunk that copies it (and the one piped after it), and both
// are stored again asking the database; a writer holding the phonebook makes a
// piped chunk's lock wait time out, and the run goes on one chunk at a time
// once the writer is done.
func TestImportPipedSurprises(t *testing.T) {
	ctx := context.Background()
	f := newImportFixture(t)
	f.s.chunkRows = 2
	f.s.pipeLockWait = "50ms"
	a := Actor{Identity: acl.Identity{AccountID: f.account}}
	plan, err := f.s.newImportPlan(ctx, f.im)
	if err != nil {
		t.Fatal(err)
	}
	// Row 6's number arrives after the plan: the plan takes it for new.
	six := Text("09120000006")
	if _, err := f.s.AddContacts(ctx, a, f.book, []ContactInput{{Number: &six}}); err != nil {
		t.Fatal(err)
	}
	if err := f.s.importRows(ctx, &f.im, plan); err != nil || !plan.probe {
		t.Fatalf("import: %v, probe %v", err, plan.probe)
	}
	f.check(t, 8, 1, 9)

	// A second import into a new phonebook while a writer holds that phonebook.
	g := newImportFixture(t)
	g.s.chunkRows, g.s.pipeLockWait = 2, "50ms"
	if plan, err = g.s.newImportPlan(ctx, g.im); err != nil {
		t.Fatal(err)
	}
	tx, err := g.d.Pool.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback(ctx)
	if _, err := tx.Exec(ctx, `SELECT 1 FROM phonebooks WHERE id = $1 FOR UPDATE`, g.book); err != nil {
		t.Fatal(err)
	}
	ran := make(chan error, 1)
	go func() { ran <- g.s.importRows(ctx, &g.im, plan) }()
	// The piped chunk's wait times out (it had copied: it held a lock on
	// contacts), and the run falls back to one chunk at a time, which waits for
	// the writer before it copies anything.
	for waiting := false; !waiting; {
		select {
		case err := <-ran:
			t.Fatalf("the import ended while the phonebook was held: %v", err)
		case <-time.After(20 * time.Millisecond):
		}
		if err := g.d.Pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM pg_stat_activity a
			WHERE a.datname = current_database() AND a.wait_event_type = 'Lock' AND NOT EXISTS (
				SELECT 1 FROM pg_locks l WHERE l.pid = a.pid AND l.relation = 'contacts'::regclass AND l.granted))`).
			Scan(&waiting); err != nil {
			t.Fatal(err)
		}
	}
	if err := tx.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	if err := <-ran; err != nil || !plan.probe {
		t.Fatalf("import: %v, probe %v", err, plan.probe)
	}
	g.check(t, 9, 0, 9)
}
