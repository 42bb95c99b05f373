package httpapi_test

import (
	"bytes"
	"net/http"
	"testing"

	"github.com/xuri/excelize/v2"

	"github.com/chapar/chapar/internal/testing/apitest"
	"github.com/chapar/chapar/pkg/blocklist"
	"github.com/chapar/chapar/pkg/upload"
)

const blocklistImportPath = "/v1/api/admin/operator-blocklist/import"

func blocklistSummary(t *testing.T, e *apitest.Env, token string) map[string]int64 {
	t.Helper()
	var s blocklist.Summary
	e.Must(http.StatusOK, "GET", "/v1/api/admin/operator-blocklist", nil, token).Decode(t, &s)
	out := map[string]int64{"": s.Total}
	for _, c := range s.Operators {
		out[c.Operator] = c.Count
	}
	return out
}

// Staff import a csv (header, numbers in several spellings, a repeat, a bad row)
// and an xlsx: the numbers are listed normalised under the operator of their
// prefix, counted per operator, found by search and removed one by one; a second
// import of the same numbers adds nothing.
func TestStaffOperatorBlocklistImport(t *testing.T) {
	e := apitest.Start(t, nil)
	staffTok := e.Staff("blockadmin", "09121117101")
	csv := "شماره\n09121110001\n+989121110002\n۰۹۳۵۱۱۱۰۰۰۳\n9121110001\nنامعتبر\n"
	r := uploadFile(e, blocklistImportPath, staffTok, "file", "block.csv", []byte(csv), nil)
	var res blocklist.ImportResult
	if r.Status != http.StatusOK {
		t.Fatalf("import: %d %s", r.Status, r.Raw)
	}
	r.Decode(t, &res)
	if res.Rows != 6 || res.Valid != 4 || res.Invalid != 2 || res.Added != 3 || res.Existing != 1 {
		t.Fatalf("import result %+v", res)
	}
	if c := blocklistSummary(t, e, staffTok); c["mci"] != 2 || c["irancell"] != 1 || c[""] != 3 {
		t.Fatalf("counts %v", c)
	}

	book := excelize.NewFile()
	_ = book.SetSheetRow("Sheet1", "A1", &[]any{"mobile"})
	_ = book.SetSheetRow("Sheet1", "A2", &[]any{9191110004})
	_ = book.SetSheetRow("Sheet1", "A3", &[]any{"09121110002"})
	var xb bytes.Buffer
	if err := book.Write(&xb); err != nil {
		t.Fatal(err)
	}
	r = uploadFile(e, blocklistImportPath, staffTok, "file", "block.xlsx", xb.Bytes(), map[string]string{"operator": "mci"})
	if r.Status != http.StatusOK {
		t.Fatalf("xlsx import: %d %s", r.Status, r.Raw)
	}
	r.Decode(t, &res)
	if res.Added != 1 || res.Existing != 1 {
		t.Fatalf("xlsx import result %+v", res)
	}

	var found []blocklist.Entry
	e.Must(http.StatusOK, "GET", "/v1/api/admin/operator-blocklist/search?mobile=09121110002", nil, staffTok).Decode(t, &found)
	if len(found) != 1 || found[0].Mobile != "989121110002" || found[0].Operator != "mci" || found[0].Source != blocklist.SourceImport {
		t.Fatalf("search %+v", found)
	}
	e.Must(http.StatusOK, "POST", "/v1/api/admin/operator-blocklist/delete", map[string]any{"mobile": "09121110002", "operator": "mci"}, staffTok)
	e.Must(http.StatusOK, "GET", "/v1/api/admin/operator-blocklist/search?mobile=09121110002", nil, staffTok).Decode(t, &found)
	if len(found) != 0 {
		t.Fatalf("removed number still listed: %+v", found)
	}
	r = e.Do("POST", "/v1/api/admin/operator-blocklist/delete", map[string]any{"mobile": "09121110002", "operator": "mci"}, staffTok)
	if r.Status != http.StatusNotFound || r.Meta.Message != blocklist.MsgNotFound {
		t.Fatalf("removing an unlisted number: %d %s", r.Status, r.Raw)
	}
	if c := blocklistSummary(t, e, staffTok); c["mci"] != 2 || c[""] != 3 {
		t.Fatalf("counts after the removal %v", c)
	}
}

// Only staff reach the lists: a customer's session (and no session) is answered
// 404 on every route, as on every staff route.
func TestOperatorBlocklistStaffOnly(t *testing.T) {
	e := apitest.Start(t, nil)
	token, _ := lineOwner(t, e, "blockcust", "09121117102", 1000)
	for _, r := range []apitest.Response{
		e.Do("GET", "/v1/api/admin/operator-blocklist", nil, token),
		e.Do("GET", "/v1/api/admin/operator-blocklist/search?mobile=09121110001", nil, token),
		uploadFile(e, blocklistImportPath, token, "file", "block.csv", []byte("09121110001\n"), nil),
		e.Do("POST", "/v1/api/admin/operator-blocklist/delete", map[string]any{"mobile": "09121110001", "operator": "mci"}, token),
	} {
		if r.Status != http.StatusNotFound {
			t.Fatalf("a customer reached a staff route: %d %s", r.Status, r.Raw)
		}
	}
	if r := e.Do("GET", "/v1/api/admin/operator-blocklist", nil, ""); r.Status != http.StatusNotFound {
		t.Fatalf("anonymous: %d %s", r.Status, r.Raw)
	}
}

// Bad files and fields are refused with a Persian field error (422) and list
// nothing: a picture named .csv, an xls, a csv without a mobile number, a broken
// xlsx, an unknown operator, no file at all.
func TestOperatorBlocklistImportRefusals(t *testing.T) {
	e := apitest.Start(t, nil)
	staffTok := e.Staff("blockadmin2", "09121117103")
	cases := []struct {
		name, file, formField, field, msg string
		data                              []byte
		fields                            map[string]string
	}{
		{"picture", "block.csv", "file", "file", upload.MsgFormat, pngOf(4, 4), nil},
		{"xls", "block.xls", "file", "file", upload.MsgXLS, []byte("09121110001"), nil},
		{"no number", "block.csv", "file", "file", blocklist.MsgNoValid, []byte("name\nali\n12345\n"), nil},
		{"broken xlsx", "block.xlsx", "file", "file", upload.MsgFormat, []byte("09121110001\n"), nil},
		{"operator", "block.csv", "file", "operator", blocklist.MsgOperator, []byte("09121110001\n"), map[string]string{"operator": "tci"}},
		{"no file", "block.csv", "other", "file", upload.MsgNoFile, []byte("09121110001\n"), nil},
	}
	for _, c := range cases {
		r := uploadFile(e, blocklistImportPath, staffTok, c.formField, c.file, c.data, c.fields)
		if r.Status != http.StatusUnprocessableEntity || len(r.Meta.Errors[c.field]) == 0 || r.Meta.Errors[c.field][0] != c.msg {
			t.Errorf("%s: %d %s, want 422 %q on %s", c.name, r.Status, r.Raw, c.msg, c.field)
		}
	}
	if c := blocklistSummary(t, e, staffTok); c[""] != 0 {
		t.Fatalf("refused imports listed numbers: %v", c)
	}
}
