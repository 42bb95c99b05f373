package httpapi_test

// One account must never see or change another account's contacts, on any route.

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"github.com/chapar/chapar/internal/testing/apitest"
	"github.com/chapar/chapar/jobs"
	"github.com/chapar/chapar/pkg/phonebook"
)

func snapshot(t *testing.T, e *apitest.Env, account int64) string {
	t.Helper()
	var out string
	err := e.DB.Pool.QueryRow(context.Background(), `SELECT concat_ws(E'\n',
		(SELECT string_agg(row_to_json(p)::text, ',' ORDER BY id) FROM phonebooks p WHERE account_id = $1),
		(SELECT string_agg(row_to_json(c)::text, ',' ORDER BY id) FROM contacts c WHERE account_id = $1),
		(SELECT string_agg(row_to_json(t)::text, ',' ORDER BY id) FROM contact_tags t WHERE account_id = $1),
		(SELECT string_agg(row_to_json(f)::text, ',' ORDER BY id) FROM contact_features f WHERE account_id = $1),
		(SELECT string_agg(row_to_json(i)::text, ',' ORDER BY id) FROM contact_imports i WHERE account_id = $1),
		(SELECT string_agg(row_to_json(b)::text, ',' ORDER BY kind, mobile) FROM blacklist b WHERE account_id = $1))`,
		account).Scan(&out)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestContactsIsolation: another account tries every contacts route with the first
// account's ids and gets 404 or an empty answer, and nothing of the first changes.
func TestContactsIsolation(t *testing.T) {
	f := newContactsFixture(t)
	book := f.phonebook("خصوصی")
	f.must(201, "POST", "/options", map[string]any{"title_fa": "امتیاز", "title_en": "score", "type": "integer"})
	f.add(book.ID, map[string]any{"number": "09121234567", "name": "محرمانه", "tags": []string{"سری"},
		"features": map[string]any{"score": 5}})
	contact, _ := f.contacts("")
	cid := contact[0].ID
	tag := into[[]phonebook.Tag](t, f.must(200, "GET", "/numbers/tags", nil))[0].ID
	feature := into[[]phonebook.Feature](t, f.must(200, "GET", "/options", nil))[0].ID
	f.must(201, "POST", "/blacklist", map[string]any{"numbers": []string{"09121234567"}, "kind": "send"})
	fileA := fileFixture(t, f.e, f.accA, "contacts", "ready", []string{"موبایل"}, [][]string{{"09351234567"}})
	imp := into[phonebook.Import](t, f.must(202, "POST", "/numbers/import", map[string]any{"file_id": fileA, "phonebook_id": book.ID}))
	runTasks(t, f.e, jobs.TypeContactImport, nil)

	// B's own things, to aim A's ids from.
	bBook := into[phonebook.Phonebook](t, f.e.Must(201, "POST", pbAPI, map[string]any{"name": "خصوصی"}, f.tokB))
	f.e.Must(201, "POST", pbAPI+"/numbers/add-list-new", map[string]any{"phonebook_id": bBook.ID,
		"contacts": []any{map[string]any{"number": "09121234567"}}}, f.tokB)
	var bContact int64
	_ = f.e.DB.Pool.QueryRow(context.Background(), `SELECT id FROM contacts WHERE account_id = $1`, f.accB).Scan(&bContact)
	fileB := fileFixture(t, f.e, f.accB, "contacts", "ready", []string{"موبایل"}, [][]string{{"09351234567"}})

	before := snapshot(t, f.e, f.accA)
	id := func(n int64) string { return strconv.FormatInt(n, 10) }
	for _, c := range []struct {
		method, path string
		body         any
		status       int
		data         string // the expected data, when not 404
	}{
		{"GET", "/" + id(book.ID), nil, 404, ""},
		{"POST", "/update", map[string]any{"id": book.ID, "name": "ربوده"}, 404, ""},
		{"POST", "/delete-list", map[string]any{"ids": []int64{book.ID}}, 404, ""},
		{"POST", "/delete-list", map[string]any{"ids": []int64{book.ID, bBook.ID}}, 404, ""},
		{"GET", "/list-new?search=" + url.QueryEscape("خصوصی"), nil, 200, `[{"id":` + id(bBook.ID)},
		{"GET", "/options/list-new", nil, 200, `[{"label":"خصوصی","value":` + id(bBook.ID) + `}]`},
		{"GET", "/options-with-default", nil, 200, `[{"label":"همه مخاطبین","value":0},{"label":"خصوصی","value":` + id(bBook.ID) + `}]`},
		{"GET", "/numbers/count?phonebook_ids=" + id(book.ID), nil, 404, ""},
		{"GET", "/numbers/count", nil, 200, `{"count":1,"unique":1,"blacklisted":0}`},
		{"POST", "/numbers/add-list-new", map[string]any{"phonebook_id": book.ID,
			"contacts": []any{map[string]any{"number": "09131234567"}}}, 404, ""},
		{"POST", "/numbers/add-list-new", map[string]any{"phonebook_id": bBook.ID,
			"contacts": []any{map[string]any{"number": "09131234567", "features": map[string]any{"score": 1}}}}, 422, ""},
		{"POST", "/numbers/update-new", map[string]any{"id": cid, "name": "ربوده"}, 404, ""},
		{"POST", "/numbers/update-new", map[string]any{"id": bContact, "phonebook_id": book.ID}, 404, ""},
		{"POST", "/numbers/delete-list", map[string]any{"ids": []int64{cid}}, 404, ""},
		{"POST", "/numbers/delete-list", map[string]any{"ids": []int64{cid, bContact}}, 404, ""},
		{"POST", "/numbers/delete-list", map[string]any{"phonebook_id": book.ID, "all": true}, 404, ""},
		{"GET", "/numbers/contact-list?phonebook_id=" + id(book.ID), nil, 404, ""},
		{"GET", "/numbers/contact-list?search=" + url.QueryEscape("محرمانه"), nil, 200, "[]"},
		{"GET", "/numbers/contact-list?tag=" + id(tag), nil, 200, "[]"},
		{"GET", "/numbers/" + id(cid), nil, 404, ""},
		{"GET", "/numbers/list?phonebook_id=" + id(book.ID), nil, 404, ""},
		{"GET", "/numbers/tags", nil, 200, "[]"},
		{"POST", "/tags/delete-list", map[string]any{"ids": []int64{tag}}, 404, ""},
		{"GET", "/options", nil, 200, "[]"},
		{"POST", "/options", map[string]any{"id": feature, "title_fa": "x", "title_en": "x", "type": "text"}, 404, ""},
		{"POST", "/options/delete-list", map[string]any{"ids": []int64{feature}}, 404, ""},
		{"GET", "/blacklist?kind=send", nil, 200, "[]"},
		{"POST", "/blacklist/delete-list", map[string]any{"numbers": []string{"09121234567"}, "kind": "send"}, 200, `{"deleted":0}`},
		{"POST", "/numbers/import", map[string]any{"file_id": fileA, "phonebook_id": bBook.ID}, 404, ""},
		{"POST", "/numbers/import", map[string]any{"file_id": fileB, "phonebook_id": book.ID}, 404, ""},
		{"GET", "/numbers/import/" + id(imp.ID), nil, 404, ""},
		{"GET", "/numbers/export?phonebook_id=" + id(book.ID), nil, 404, ""},
	} {
		r := f.e.Do(c.method, pbAPI+c.path, c.body, f.tokB)
		if r.Status != c.status || c.status == 404 && r.Meta.Message != "موردی یافت نشد" || !strings.HasPrefix(string(r.Data), c.data) {
			t.Errorf("B %s %s: %d %s", c.method, c.path, r.Status, r.Raw)
		}
	}
	// B's exports hold none of A's rows.
	for _, path := range []string{"/numbers/export", "/blacklist/export?kind=send"} {
		req, _ := http.NewRequest("GET", f.e.URL+pbAPI+path, nil)
		req.Header.Set("Authorization", "Bearer "+f.tokB)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		x, err := excelize.OpenReader(bytes.NewReader(body))
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		rows, _ := x.GetRows(x.GetSheetList()[0])
		x.Close()
		want := 1 // the header
		if path == "/numbers/export" {
			want = 2 // and B's own contact
		}
		if len(rows) != want || strings.Contains(fmt.Sprint(rows), "محرمانه") {
			t.Errorf("B's %s: %v", path, rows)
		}
	}
	if after := snapshot(t, f.e, f.accA); after != before {
		t.Fatalf("B changed A's contacts:\nbefore %s\nafter  %s", before, after)
	}
}
