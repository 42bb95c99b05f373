package httpapi_test

import (
	"context"
	"fmt"
	"net/url"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chapar/chapar/internal/testing/apitest"
	"github.com/chapar/chapar/pkg/persian"
	"github.com/chapar/chapar/pkg/phonebook"
	"github.com/chapar/chapar/pkg/validate"
)

// contactsFixture is two owners: A, whose contacts the tests build, and B, who must
// never see or change them.
type contactsFixture struct {
	t          *testing.T
	e          *apitest.Env
	tokA, tokB string
	accA, accB int64
}

func newContactsFixture(t *testing.T) *contactsFixture {
	t.Helper()
	e := apitest.Start(t, nil)
	e.Register("parisa", pw, "09121110011")
	e.Register("kaveh", pw, "09121110012")
	f := &contactsFixture{t: t, e: e, tokA: e.Login("parisa", pw), tokB: e.Login("kaveh", pw)}
	for name, dst := range map[string]*int64{"parisa": &f.accA, "kaveh": &f.accB} {
		u, err := e.Accounts.ByUsername(context.Background(), name)
		if err != nil {
			t.Fatal(err)
		}
		*dst = u.AccountID
	}
	return f
}

const pbAPI = "/v1/api/phonebooks"

// must calls the API as A.
func (f *contactsFixture) must(want int, method, path string, body any) apitest.Response {
	f.t.Helper()
	return f.e.Must(want, method, pbAPI+path, body, f.tokA)
}

// into decodes a response's data.
func into[T any](t *testing.T, r apitest.Response) T {
	t.Helper()
	var v T
	r.Decode(t, &v)
	return v
}

func (f *contactsFixture) phonebook(name string) phonebook.Phonebook {
	f.t.Helper()
	return into[phonebook.Phonebook](f.t, f.must(201, "POST", "", map[string]any{"name": name}))
}

func (f *contactsFixture) add(book int64, contacts ...map[string]any) phonebook.AddResult {
	f.t.Helper()
	return into[phonebook.AddResult](f.t, f.must(201, "POST", "/numbers/add-list-new",
		map[string]any{"phonebook_id": book, "contacts": contacts}))
}

func (f *contactsFixture) contacts(query string) ([]phonebook.Contact, int64) {
	f.t.Helper()
	r := f.must(200, "GET", "/numbers/contact-list?"+query, nil)
	return into[[]phonebook.Contact](f.t, r), *r.Meta.Total
}

func (f *contactsFixture) members(id int64) int {
	f.t.Helper()
	return into[phonebook.Phonebook](f.t, f.must(200, "GET", "/"+strconv.FormatInt(id, 10), nil)).Members
}

// wantField fails unless r is a 422 with msg on field.
func wantField(t *testing.T, r apitest.Response, field, msg string) {
	t.Helper()
	if r.Status != 422 || len(r.Meta.Errors[field]) == 0 || r.Meta.Errors[field][0] != msg {
		t.Fatalf("want 422 %q on %s, got %d %s", msg, field, r.Status, r.Raw)
	}
}

func TestPhonebookCRUD(t *testing.T) {
	f := newContactsFixture(t)
	vip := f.phonebook("مشتریان ویژه")
	if len(vip.Code) != 6 || vip.Members != 0 || vip.ID == 0 {
		t.Fatalf("created %+v", vip)
	}
	coded := into[phonebook.Phonebook](t, f.must(201, "POST", "", map[string]any{"name": "همکاران", "code": "staff-1"}))
	if coded.Code != "staff-1" {
		t.Fatalf("code %+v", coded)
	}
	r := f.must(409, "POST", "", map[string]any{"name": " مشتریان ويژه "}) // Arabic yeh, spaces
	if r.Meta.Message != phonebook.MsgPhonebookNameTaken || r.Meta.Errors["name"][0] != phonebook.MsgPhonebookNameTaken {
		t.Fatalf("duplicate name: %s", r.Raw)
	}
	r = f.must(409, "POST", "", map[string]any{"name": "دیگر", "code": "staff-1"})
	if r.Meta.Message != phonebook.MsgPhonebookCodeTaken {
		t.Fatalf("duplicate code: %s", r.Raw)
	}
	wantField(t, f.e.Do("POST", pbAPI, map[string]any{"name": "  "}, f.tokA), "name", validate.MsgRequired)
	wantField(t, f.e.Do("POST", pbAPI, map[string]any{"name": strings.Repeat("ب", 101)}, f.tokA), "name", phonebook.MsgPhonebookNameLong)
	wantField(t, f.e.Do("POST", pbAPI, map[string]any{"name": "x", "code": "کد"}, f.tokA), "code", phonebook.MsgPhonebookCode)

	renamed := into[phonebook.Phonebook](t, f.must(200, "POST", "/update", map[string]any{"id": vip.ID, "name": "وی‌آی‌پی"}))
	if renamed.Name != "وی‌آی‌پی" || renamed.Code != vip.Code {
		t.Fatalf("renamed %+v", renamed)
	}
	f.must(409, "POST", "/update", map[string]any{"id": vip.ID, "name": "همکاران"})
	f.must(404, "POST", "/update", map[string]any{"id": 999999, "name": "x"})

	third := f.phonebook("سوم")
	r = f.must(200, "GET", "/list-new?limit=2", nil)
	list := into[[]phonebook.Phonebook](t, r)
	if len(list) != 2 || list[0].ID != third.ID || *r.Meta.Total != 3 || r.Meta.Limit != 2 || r.Meta.Page != 1 {
		t.Fatalf("list-new: %s", r.Raw)
	}
	r = f.must(200, "GET", "/list-new?page=2&limit=2", nil)
	if list = into[[]phonebook.Phonebook](t, r); len(list) != 1 || list[0].ID != vip.ID {
		t.Fatalf("list-new page 2: %s", r.Raw)
	}
	r = f.must(200, "GET", "/list-new?search="+url.QueryEscape("staff"), nil)
	if list = into[[]phonebook.Phonebook](t, r); len(list) != 1 || list[0].ID != coded.ID {
		t.Fatalf("search by code: %s", r.Raw)
	}
	f.must(422, "GET", "/list-new?page=x", nil)

	opts := into[[]phonebook.Option](t, f.must(200, "GET", "/options/list-new?search="+url.QueryEscape("سو"), nil))
	if len(opts) != 1 || opts[0].Value != third.ID || opts[0].Label != "سوم" {
		t.Fatalf("options: %+v", opts)
	}
	opts = into[[]phonebook.Option](t, f.must(200, "GET", "/options-with-default", nil))
	if len(opts) != 4 || opts[0] != (phonebook.Option{Label: "همه مخاطبین", Value: 0}) {
		t.Fatalf("options with default: %+v", opts)
	}

	f.add(vip.ID, map[string]any{"number": "09120000001"}, map[string]any{"number": "09120000002"})
	f.must(404, "POST", "/delete-list", map[string]any{"ids": []int64{vip.ID, 999999}})
	if f.members(vip.ID) != 2 {
		t.Fatal("a refused delete-list changed something")
	}
	r = f.must(200, "POST", "/delete-list", map[string]any{"ids": []any{vip.ID, strconv.FormatInt(third.ID, 10)}})
	if string(r.Data) != `{"deleted":2}` {
		t.Fatalf("delete-list: %s", r.Raw)
	}
	f.must(404, "GET", "/"+strconv.FormatInt(vip.ID, 10), nil)
	var left int
	_ = f.e.DB.Pool.QueryRow(context.Background(), `SELECT count(*) FROM contacts WHERE account_id = $1`, f.accA).Scan(&left)
	if _, total := f.contacts(""); total != 0 || left != 0 {
		t.Fatalf("contacts left after deleting their phonebook: %d (%d stored)", total, left)
	}
	f.must(422, "POST", "/delete-list", map[string]any{"ids": []int64{}})
}

func TestContactsCRUD(t *testing.T) {
	f := newContactsFixture(t)
	book := f.phonebook("مشتریان")
	other := f.phonebook("تهران")
	f.must(201, "POST", "/options", map[string]any{"title_fa": "امتیاز", "title_en": "score", "type": "integer"})

	res := f.add(book.ID,
		map[string]any{"number": "۰۹۱۲۱۲۳۴۵۶۷", "name": "علی", "gender": "male", "birth_date": "1990-05-01",
			"tags": []string{"ویژه", "تهران"}, "features": map[string]any{"score": "۴۲"}},
		map[string]any{"number": "+98 912 123 4567"}, // the same number again
		map[string]any{"number": "0912"},             // invalid
		map[string]any{"number": 9351234567, "name": "مریم", "gender": "female"},
		map[string]any{"number": "09361234567", "gender": "other", "birth_date": "2990-01-01"},
	)
	if res.Added != 2 || res.Skipped != 1 || len(res.Invalid) != 2 || res.Invalid[0].Index != 2 ||
		res.Invalid[0].Errors["number"][0] != validate.MsgMobile || res.Invalid[1].Index != 4 ||
		res.Invalid[1].Errors["gender"][0] != phonebook.MsgGender || res.Invalid[1].Errors["birth_date"][0] != phonebook.MsgBirthDate {
		t.Fatalf("add-list-new: %+v", res)
	}
	if f.members(book.ID) != 2 {
		t.Fatalf("members %d", f.members(book.ID))
	}
	// A second batch: one number already there is skipped.
	res = f.add(book.ID, map[string]any{"number": "09121234567"}, map[string]any{"number": "09371234567"})
	if res.Added != 1 || res.Skipped != 1 || f.members(book.ID) != 3 {
		t.Fatalf("second batch: %+v, members %d", res, f.members(book.ID))
	}
	// One contact: a duplicate is a conflict, an invalid one a 422.
	r := f.must(409, "POST", "/numbers/add-list-new", map[string]any{"phonebook_id": book.ID,
		"contacts": []any{map[string]any{"number": "09121234567"}}})
	if r.Meta.Message != "این شماره در این گروه وجود دارد" || r.Meta.Errors["number"] == nil {
		t.Fatalf("duplicate: %s", r.Raw)
	}
	wantField(t, f.e.Do("POST", pbAPI+"/numbers/add-list-new", map[string]any{"phonebook_id": book.ID,
		"contacts": []any{map[string]any{"number": "123"}}}, f.tokA), "number", validate.MsgMobile)
	wantField(t, f.e.Do("POST", pbAPI+"/numbers/add-list-new", map[string]any{"phonebook_id": book.ID,
		"contacts": []any{}}, f.tokA), "contacts", phonebook.MsgContactsRequired)
	wantField(t, f.e.Do("POST", pbAPI+"/numbers/add-list-new", map[string]any{
		"contacts": []any{map[string]any{"number": "09121234567"}}}, f.tokA), "phonebook_id", phonebook.MsgPhonebookRequired)
	many := make([]map[string]any, phonebook.MaxAddContacts+1)
	for i := range many {
		many[i] = map[string]any{"number": fmt.Sprintf("0912%07d", i)}
	}
	wantField(t, f.e.Do("POST", pbAPI+"/numbers/add-list-new", map[string]any{"phonebook_id": book.ID, "contacts": many}, f.tokA),
		"contacts", phonebook.MsgTooManyContacts)
	f.must(404, "POST", "/numbers/add-list-new", map[string]any{"phonebook_id": 999999,
		"contacts": []any{map[string]any{"number": "09121234567"}}})
	// The same number in another phonebook is fine: that is its second group.
	f.add(other.ID, map[string]any{"number": "09121234567", "name": "علی"})

	list, total := f.contacts("phonebook_id=" + strconv.FormatInt(book.ID, 10))
	if total != 3 || len(list) != 3 {
		t.Fatalf("contact-list total %d len %d", total, len(list))
	}
	ali := list[2] // oldest last
	want := phonebook.Contact{ID: ali.ID, PhonebookID: book.ID, PhonebookName: "مشتریان", Number: "989121234567", Name: "علی",
		Gender: "male", BirthDate: ptr("1990-05-01"), Tags: []string{"ویژه", "تهران"}, Features: map[string]any{"score": float64(42)},
		Blacklists: []phonebook.ListMark{}, CreatedAt: ali.CreatedAt}
	if !reflect.DeepEqual(ali, want) {
		t.Fatalf("contact\n got %+v\nwant %+v", ali, want)
	}
	got := into[phonebook.Contact](t, f.must(200, "GET", "/numbers/"+strconv.FormatInt(ali.ID, 10), nil))
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("GET contact %+v", got)
	}
	f.must(404, "GET", "/numbers/999999", nil)
	f.must(404, "GET", "/numbers/abc", nil)

	// Update: change some fields, keep the others, merge features, then move.
	upd := into[phonebook.Contact](t, f.must(200, "POST", "/numbers/update-new", map[string]any{"id": ali.ID,
		"name": "علی رضایی", "tags": []string{"وفادار"}, "birth_date": ""}))
	if upd.Name != "علی رضایی" || upd.Gender != "male" || upd.BirthDate != nil || !reflect.DeepEqual(upd.Tags, []string{"وفادار"}) ||
		upd.Features["score"] != float64(42) || upd.Number != "989121234567" {
		t.Fatalf("updated %+v", upd)
	}
	upd = into[phonebook.Contact](t, f.must(200, "POST", "/numbers/update-new", map[string]any{"id": ali.ID,
		"features": map[string]any{"score": nil}}))
	if len(upd.Features) != 0 {
		t.Fatalf("feature not removed: %+v", upd.Features)
	}
	r = f.must(409, "POST", "/numbers/update-new", map[string]any{"id": ali.ID, "number": "09351234567"})
	if r.Meta.Message != phonebook.MsgNumberTaken {
		t.Fatalf("update to a taken number: %s", r.Raw)
	}
	wantField(t, f.e.Do("POST", pbAPI+"/numbers/update-new", map[string]any{"id": ali.ID, "gender": "x"}, f.tokA), "gender", phonebook.MsgGender)
	f.must(409, "POST", "/numbers/update-new", map[string]any{"id": ali.ID, "phonebook_id": other.ID}) // other has the number
	third := f.phonebook("سوم")
	upd = into[phonebook.Contact](t, f.must(200, "POST", "/numbers/update-new", map[string]any{"id": ali.ID, "phonebook_id": third.ID}))
	if upd.PhonebookID != third.ID || upd.PhonebookName != "سوم" || f.members(book.ID) != 2 || f.members(third.ID) != 1 {
		t.Fatalf("move: %+v members %d %d", upd, f.members(book.ID), f.members(third.ID))
	}
	f.must(404, "POST", "/numbers/update-new", map[string]any{"id": 999999, "name": "x"})

	// Bare numbers and counts.
	r = f.must(200, "GET", "/numbers/list?phonebook_id="+strconv.FormatInt(book.ID, 10)+"&limit=1", nil)
	nums := into[[]phonebook.Number](t, r)
	if len(nums) != 1 || nums[0].Number != "989371234567" || *r.Meta.Total != 2 {
		t.Fatalf("numbers/list: %s", r.Raw)
	}
	if _, err := f.e.DB.Pool.Exec(context.Background(), `INSERT INTO blacklist (account_id, kind, mobile, source)
		VALUES ($1, 'cancel11', '989351234567', 'inbound'), ($1, 'send', '989351234567', 'manual'),
		       ($1, 'receive', '989371234567', 'manual'), ($2, 'send', '989371234567', 'manual')`, f.accA, f.accB); err != nil {
		t.Fatal(err)
	}
	ids := fmt.Sprintf("%d,%d,%d", book.ID, other.ID, third.ID)
	cnt := into[phonebook.NumbersCount](t, f.must(200, "GET", "/numbers/count?phonebook_ids="+ids, nil))
	if cnt != (phonebook.NumbersCount{Count: 4, Unique: 3, Blacklisted: 1}) {
		t.Fatalf("count %+v", cnt)
	}
	cnt = into[phonebook.NumbersCount](t, f.must(200, "GET", "/numbers/count?phonebook_ids=0", nil))
	if cnt != (phonebook.NumbersCount{Count: 4, Unique: 3, Blacklisted: 1}) {
		t.Fatalf("count of all %+v", cnt)
	}
	cnt = into[phonebook.NumbersCount](t, f.must(200, "GET", "/numbers/count?phonebook_ids="+strconv.FormatInt(other.ID, 10), nil))
	if cnt != (phonebook.NumbersCount{Count: 1, Unique: 1, Blacklisted: 0}) {
		t.Fatalf("count of one %+v", cnt)
	}
	f.must(404, "GET", "/numbers/count?phonebook_ids="+ids+",999999", nil)
	f.must(422, "GET", "/numbers/count?phonebook_ids=x", nil)
	list, _ = f.contacts("search=0935")
	if len(list) != 1 || len(list[0].Blacklists) != 2 || list[0].Blacklists[0].Kind != "cancel11" {
		t.Fatalf("blacklist marks: %+v", list)
	}

	// Tags: counts, create, delete (taken off the contacts).
	tags := into[[]phonebook.Tag](t, f.must(200, "GET", "/numbers/tags", nil))
	counts := map[string]int64{}
	for _, tg := range tags {
		counts[tg.Name] = tg.Contacts
	}
	if !reflect.DeepEqual(counts, map[string]int64{"ویژه": 0, "تهران": 0, "وفادار": 1}) {
		t.Fatalf("tags %+v", tags)
	}
	vip := into[phonebook.Tag](t, f.must(201, "POST", "/numbers/tags", map[string]any{"name": "VIP"}))
	r = f.must(409, "POST", "/numbers/tags", map[string]any{"name": " VIP "})
	if r.Meta.Message != phonebook.MsgTagTaken {
		t.Fatalf("duplicate tag: %s", r.Raw)
	}
	wantField(t, f.e.Do("POST", pbAPI+"/numbers/tags", map[string]any{"name": ""}, f.tokA), "name", phonebook.MsgTagName)
	if tags = into[[]phonebook.Tag](t, f.must(200, "GET", "/numbers/tags?search=vi", nil)); len(tags) != 1 || tags[0].ID != vip.ID {
		t.Fatalf("tag search: %+v", tags)
	}
	var loyal int64
	for _, tg := range into[[]phonebook.Tag](t, f.must(200, "GET", "/numbers/tags", nil)) {
		if tg.Name == "وفادار" {
			loyal = tg.ID
		}
	}
	f.must(404, "POST", "/tags/delete-list", map[string]any{"ids": []int64{loyal, 999999}})
	r = f.must(200, "POST", "/tags/delete-list", map[string]any{"ids": []int64{loyal}})
	if string(r.Data) != `{"deleted":1}` {
		t.Fatalf("tags delete: %s", r.Raw)
	}
	if c := into[phonebook.Contact](t, f.must(200, "GET", "/numbers/"+strconv.FormatInt(ali.ID, 10), nil)); len(c.Tags) != 0 {
		t.Fatalf("deleted tag still on the contact: %+v", c)
	}
	var left int
	_ = f.e.DB.Pool.QueryRow(context.Background(), `SELECT count(*) FROM contacts WHERE $1 = ANY(tag_ids)`, loyal).Scan(&left)
	if left != 0 {
		t.Fatalf("tag id left on %d contacts", left)
	}

	// Delete by ids (members follow), then everything in a phonebook.
	f.must(404, "POST", "/numbers/delete-list", map[string]any{"ids": []int64{list[0].ID, 999999}})
	r = f.must(200, "POST", "/numbers/delete-list", map[string]any{"ids": []int64{list[0].ID, ali.ID}})
	if string(r.Data) != `{"deleted":2}` || f.members(book.ID) != 1 || f.members(third.ID) != 0 {
		t.Fatalf("delete-list: %s members %d %d", r.Raw, f.members(book.ID), f.members(third.ID))
	}
	r = f.must(200, "POST", "/numbers/delete-list", map[string]any{"phonebook_id": other.ID, "all": true})
	if string(r.Data) != `{"deleted":1}` || f.members(other.ID) != 0 {
		t.Fatalf("delete all: %s", r.Raw)
	}
	f.must(404, "POST", "/numbers/delete-list", map[string]any{"phonebook_id": 999999, "all": true})
	var stored int
	_ = f.e.DB.Pool.QueryRow(context.Background(), `SELECT count(*) FROM contacts WHERE account_id = $1`, f.accA).Scan(&stored)
	if _, total := f.contacts(""); total != 1 || stored != 1 {
		t.Fatalf("left %d (%d stored)", total, stored)
	}
}

func ptr[T any](v T) *T { return &v }

func TestContactFeatures(t *testing.T) {
	f := newContactsFixture(t)
	book := f.phonebook("گروه")
	create := func(fa, en, typ string, extra map[string]any) phonebook.Feature {
		t.Helper()
		body := map[string]any{"title_fa": fa, "title_en": en, "type": typ}
		for k, v := range extra {
			body[k] = v
		}
		return into[phonebook.Feature](t, f.must(201, "POST", "/options", body))
	}
	score := create("امتیاز", "score", "integer", nil)
	if !score.Enabled || !reflect.DeepEqual(score.Flows, []string{"send", "import", "contacts"}) {
		t.Fatalf("defaults %+v", score)
	}
	join := create("تاریخ عضویت", "join-date", "date", map[string]any{"flows": []string{"contacts", "send"}})
	if !reflect.DeepEqual(join.Flows, []string{"send", "contacts"}) {
		t.Fatalf("flows %+v", join)
	}
	note := create("یادداشت", "Note2", "text", nil)
	old := create("قدیمی", "legacy", "text", map[string]any{"enabled": false})

	wantField(t, f.e.Do("POST", pbAPI+"/options", map[string]any{"title_fa": "x", "title_en": "نام", "type": "text"}, f.tokA),
		"title_en", "عنوان لاتین فقط می‌تواند شامل حروف لاتین، عدد و خط تیره باشد")
	wantField(t, f.e.Do("POST", pbAPI+"/options", map[string]any{"title_fa": "x", "title_en": "a b", "type": "text"}, f.tokA),
		"title_en", phonebook.MsgFeatureTitleEn)
	wantField(t, f.e.Do("POST", pbAPI+"/options", map[string]any{"title_fa": "x", "title_en": "ab", "type": "bool"}, f.tokA),
		"type", phonebook.MsgFeatureType)
	wantField(t, f.e.Do("POST", pbAPI+"/options", map[string]any{"title_fa": "x", "title_en": "ab", "type": "text",
		"flows": []string{"nope"}}, f.tokA), "flows", phonebook.MsgFeatureFlows)
	r := f.must(409, "POST", "/options", map[string]any{"title_fa": "x", "title_en": "SCORE", "type": "text"})
	if r.Meta.Message != phonebook.MsgFeatureTitleTaken {
		t.Fatalf("duplicate title: %s", r.Raw)
	}

	r = f.must(200, "GET", "/options?limit=3", nil)
	if fl := into[[]phonebook.Feature](t, r); len(fl) != 3 || fl[0].ID != score.ID || *r.Meta.Total != 4 {
		t.Fatalf("options list: %s", r.Raw)
	}

	// Values are checked by type.
	add := func(features map[string]any) apitest.Response {
		return f.e.Do("POST", pbAPI+"/numbers/add-list-new", map[string]any{"phonebook_id": book.ID,
			"contacts": []any{map[string]any{"number": "09121234567", "features": features}}}, f.tokA)
	}
	wantField(t, add(map[string]any{"score": "abc"}), "features.score", phonebook.MsgFeatureInteger)
	wantField(t, add(map[string]any{"score": 1.5}), "features.score", phonebook.MsgFeatureInteger)
	wantField(t, add(map[string]any{"join-date": "1402/01/01"}), "features.join-date", phonebook.MsgFeatureDate)
	wantField(t, add(map[string]any{"join-date": 20240101}), "features.join-date", phonebook.MsgFeatureDate)
	wantField(t, add(map[string]any{"note2": strings.Repeat("x", 501)}), "features.note2", phonebook.MsgFeatureText)
	wantField(t, add(map[string]any{"legacy": "x"}), "features.legacy", phonebook.MsgFeatureDisabled)
	wantField(t, add(map[string]any{"color": "x"}), "features", phonebook.MsgFeatureUnknown)
	r = add(map[string]any{"score": "-۱۲", "join-date": "۲۰۲۴-۰۱-۰۱", "note2": 77})
	if r.Status != 201 {
		t.Fatalf("valid values: %s", r.Raw)
	}
	c, _ := f.contacts("")
	if !reflect.DeepEqual(c[0].Features, map[string]any{"score": float64(-12), "join-date": "2024-01-01", "Note2": "77"}) {
		t.Fatalf("stored values %+v", c[0].Features)
	}

	// The type is locked once a value exists; the rest may change.
	wantField(t, f.e.Do("POST", pbAPI+"/options", map[string]any{"id": score.ID, "title_fa": "امتیاز", "title_en": "score",
		"type": "text"}, f.tokA), "type", phonebook.MsgFeatureTypeLocked)
	upd := into[phonebook.Feature](t, f.must(200, "POST", "/options", map[string]any{"id": score.ID, "title_fa": "امتیاز کل",
		"title_en": "points", "type": "integer", "enabled": true}))
	if upd.TitleEn != "points" || upd.TitleFa != "امتیاز کل" {
		t.Fatalf("update %+v", upd)
	}
	if c, _ = f.contacts(""); c[0].Features["points"] != float64(-12) {
		t.Fatalf("a renamed feature lost its values: %+v", c[0].Features)
	}
	changed := into[phonebook.Feature](t, f.must(200, "POST", "/options", map[string]any{"id": old.ID, "title_fa": "قدیمی",
		"title_en": "legacy", "type": "integer", "enabled": true}))
	if changed.Type != "integer" || !changed.Enabled {
		t.Fatalf("type change without values %+v", changed)
	}
	f.must(404, "POST", "/options", map[string]any{"id": 999999, "title_fa": "x", "title_en": "x", "type": "text"})

	// A disabled feature's value is refused on update too.
	f.must(200, "POST", "/options", map[string]any{"id": note.ID, "title_fa": "یادداشت", "title_en": "Note2", "type": "text",
		"enabled": false})
	wantField(t, f.e.Do("POST", pbAPI+"/numbers/update-new", map[string]any{"id": c[0].ID,
		"features": map[string]any{"note2": "y"}}, f.tokA), "features.note2", phonebook.MsgFeatureDisabled)

	// Deleting a feature deletes its values.
	f.must(404, "POST", "/options/delete-list", map[string]any{"ids": []int64{join.ID, 999999}})
	r = f.must(200, "POST", "/options/delete-list", map[string]any{"ids": []int64{join.ID}})
	if string(r.Data) != `{"deleted":1}` {
		t.Fatalf("delete: %s", r.Raw)
	}
	var keys int
	_ = f.e.DB.Pool.QueryRow(context.Background(), `SELECT count(*) FROM contacts WHERE features ? $1`,
		strconv.FormatInt(join.ID, 10)).Scan(&keys)
	if c, _ = f.contacts(""); keys != 0 || len(c[0].Features) != 2 {
		t.Fatalf("values of a deleted feature: %d %+v", keys, c[0].Features)
	}
}

func TestContactSearchAndFilters(t *testing.T) {
	f := newContactsFixture(t)
	a := f.phonebook("الف")
	b := f.phonebook("ب")
	f.must(201, "POST", "/options", map[string]any{"title_fa": "شهر", "title_en": "city", "type": "text"})
	f.must(201, "POST", "/options", map[string]any{"title_fa": "امتیاز", "title_en": "score", "type": "integer"})
	f.must(201, "POST", "/options", map[string]any{"title_fa": "عضویت", "title_en": "joined", "type": "date"})
	f.add(a.ID,
		map[string]any{"number": "09121111111", "name": "علی کریمی", "gender": "male", "birth_date": "1980-01-01",
			"tags": []string{"طلایی"}, "features": map[string]any{"city": "Tehran", "score": 10, "joined": "2020-01-01"}},
		map[string]any{"number": "09122222222", "name": "كريم علوی", "gender": "male", "birth_date": "1995-06-15", // Arabic letters
			"features": map[string]any{"city": "Shiraz", "score": 20}},
		map[string]any{"number": "09353333333", "name": "سارا", "gender": "female", "tags": []string{"طلایی", "نقره‌ای"},
			"features": map[string]any{"score": 10}},
		map[string]any{"number": "09364444444", "name": "100% واقعی"},
	)
	f.add(b.ID, map[string]any{"number": "09121111111", "name": "علی کریمی", "birth_date": "2001-12-31"})
	// One old contact, for the creation filters.
	if _, err := f.e.DB.Pool.Exec(context.Background(), `UPDATE contacts SET created_at = '2023-03-01T10:00:00Z'
		WHERE account_id = $1 AND mobile = '989364444444'`, f.accA); err != nil {
		t.Fatal(err)
	}
	names := func(query string) (string, int64) {
		t.Helper()
		list, total := f.contacts(query)
		var out []string
		for _, c := range list {
			out = append(out, c.Name+"@"+c.PhonebookName)
		}
		return strings.Join(out, "|"), total
	}
	q := url.QueryEscape
	for _, tc := range []struct {
		query, want string
		total       int64
	}{
		{"", "علی کریمی@ب|100% واقعی@الف|سارا@الف|کریم علوی@الف|علی کریمی@الف", 5},
		{"phonebook_id=" + strconv.FormatInt(a.ID, 10), "100% واقعی@الف|سارا@الف|کریم علوی@الف|علی کریمی@الف", 4},
		{"search=" + q("کریم"), "علی کریمی@ب|کریم علوی@الف|علی کریمی@الف", 3},
		{"search=" + q("علي"), "علی کریمی@ب|علی کریمی@الف", 2}, // Arabic yeh finds Persian
		{"search=" + q("كريم"), "علی کریمی@ب|کریم علوی@الف|علی کریمی@الف", 3},
		{"search=" + q("100%"), "100% واقعی@الف", 1},
		{"search=" + q("10_"), "", 0},
		{"search=0912", "علی کریمی@ب|کریم علوی@الف|علی کریمی@الف", 3},
		{"search=" + q("۰۹۳۵۳۳"), "سارا@الف", 1},
		{"search=" + q("+98 935"), "سارا@الف", 1},
		// A number is searched by its start, in any form; other digits are a name.
		{"search=4444", "", 0},
		{"search=936444", "100% واقعی@الف", 1},
		{"search=" + q("۹۸۹۳۶۴۴"), "100% واقعی@الف", 1},
		{"search=98912", "علی کریمی@ب|کریم علوی@الف|علی کریمی@الف", 3},
		{"search=" + q("۰۹۱۲ ۱۱۱"), "علی کریمی@ب|علی کریمی@الف", 2},
		{"search=" + q("+989122222222"), "کریم علوی@الف", 1},
		{"search=09122222223", "", 0},
		{"search=" + q("0912") + "&phonebook_id=" + strconv.FormatInt(a.ID, 10), "کریم علوی@الف|علی کریمی@الف", 2},
		{"gender=female", "سارا@الف", 1},
		{"gender=none", "علی کریمی@ب|100% واقعی@الف", 2},
		{"tag=" + q("طلایی"), "سارا@الف|علی کریمی@الف", 2},
		{"tag=" + q("ناموجود"), "", 0},
		{"birth_from=1990-01-01", "علی کریمی@ب|کریم علوی@الف", 2},
		{"birth_from=1980-01-01&birth_to=1995-06-15", "کریم علوی@الف|علی کریمی@الف", 2},
		{"created_to=2023-03-01", "100% واقعی@الف", 1},
		{"created_from=2023-03-02", "علی کریمی@ب|سارا@الف|کریم علوی@الف|علی کریمی@الف", 4},
		{"feature.city=" + q("tehr"), "علی کریمی@الف", 1},
		{"feature.score=10", "سارا@الف|علی کریمی@الف", 2},
		{"feature.score=" + q("۲۰"), "کریم علوی@الف", 1},
		{"feature.joined=2020-01-01", "علی کریمی@الف", 1},
		{"feature.score=10&gender=male", "علی کریمی@الف", 1},
		{"limit=2&page=2", "سارا@الف|کریم علوی@الف", 5},
	} {
		got, total := names(tc.query)
		if got != tc.want || total != tc.total {
			t.Errorf("%s: got %q (%d), want %q (%d)", tc.query, got, total, tc.want, tc.total)
		}
	}
	var tagID int64
	for _, tg := range into[[]phonebook.Tag](t, f.must(200, "GET", "/numbers/tags", nil)) {
		if tg.Name == "نقره‌ای" {
			tagID = tg.ID
		}
	}
	if got, _ := names("tag=" + strconv.FormatInt(tagID, 10)); got != "سارا@الف" {
		t.Errorf("tag by id: %q", got)
	}
	for query, field := range map[string]string{"gender=x": "gender", "birth_from=1990-13-01": "birth_from",
		"created_from=yesterday": "created_from", "feature.score=abc": "feature.score", "feature.nope=1": "feature",
		"phonebook_id=x": "phonebook_id", "limit=-1": "limit", "created_from=2024-01-02&created_to=2024-01-01": "created_to"} {
		r := f.e.Do("GET", pbAPI+"/numbers/contact-list?"+query, nil, f.tokA)
		if r.Status != 422 || len(r.Meta.Errors[field]) == 0 {
			t.Errorf("%s: %d %s", query, r.Status, r.Raw)
		}
	}
	f.must(404, "GET", "/numbers/contact-list?phonebook_id=999999", nil)
}

func TestBlacklists(t *testing.T) {
	f := newContactsFixture(t)
	r := f.must(201, "POST", "/blacklist", map[string]any{"numbers": []any{"09121234567", "۰۹۳۵۱۲۳۴۵۶۷", "989121234567", 9121112222},
		"kind": "send"})
	if string(r.Data) != `{"added":3,"skipped":1}` {
		t.Fatalf("add: %s", r.Raw)
	}
	r = f.must(201, "POST", "/blacklist", map[string]any{"numbers": []string{"09121234567", "09130000000"}, "kind": "send"})
	if string(r.Data) != `{"added":1,"skipped":1}` {
		t.Fatalf("add again: %s", r.Raw)
	}
	f.must(201, "POST", "/blacklist", map[string]any{"numbers": []string{"09121234567"}, "kind": "receive"})
	r = f.e.Do("POST", pbAPI+"/blacklist", map[string]any{"numbers": []string{"09121234567", "0912"}, "kind": "send"}, f.tokA)
	wantField(t, r, "numbers", "لطفا شماره موبایل صحیح وارد کنید")
	wantField(t, f.e.Do("POST", pbAPI+"/blacklist", map[string]any{"numbers": []string{"09121234567"}, "kind": "gray"}, f.tokA),
		"kind", phonebook.MsgListKind)
	wantField(t, f.e.Do("POST", pbAPI+"/blacklist", map[string]any{"numbers": []string{}, "kind": "send"}, f.tokA),
		"numbers", phonebook.MsgNumbersRequired)
	// Cancel-11 entries come from inbound «11».
	if _, err := f.e.DB.Pool.Exec(context.Background(), `INSERT INTO blacklist (account_id, kind, mobile, source, created_at)
		VALUES ($1, 'cancel11', '989120000001', 'inbound', now() - interval '1 day'), ($1, 'cancel11', '989120000002', 'inbound', now())`,
		f.accA); err != nil {
		t.Fatal(err)
	}
	entries := func(query string) ([]phonebook.ListEntry, int64) {
		t.Helper()
		r := f.must(200, "GET", "/blacklist?"+query, nil)
		return into[[]phonebook.ListEntry](t, r), *r.Meta.Total
	}
	list, total := entries("kind=send")
	if total != 4 || len(list) != 4 || list[0].Source != "manual" || list[0].Kind != "send" {
		t.Fatalf("send list %+v", list)
	}
	if list, total = entries("kind=send&search=" + url.QueryEscape("0912123")); total != 1 || list[0].Number != "989121234567" {
		t.Fatalf("search %+v", list)
	}
	if list, total = entries("kind=cancel11&limit=1"); total != 2 || len(list) != 1 || list[0].Number != "989120000002" ||
		list[0].Source != "inbound" {
		t.Fatalf("cancel11 %+v", list)
	}
	if _, total = entries("kind=receive"); total != 1 {
		t.Fatalf("receive %d", total)
	}
	if _, total = entries("kind=send&search=abc"); total != 0 {
		t.Fatalf("text search %d", total)
	}
	f.must(422, "GET", "/blacklist?kind=x", nil)

	// The export holds every entry of the list.
	res := f.rawGet("/blacklist/export?kind=cancel11")
	rows := xlsxRows(t, res, "لیست لغو۱۱")
	if len(rows) != 3 || rows[0][0] != "شماره موبایل" || rows[1][0] != "09120000002" || rows[1][1] != "لیست لغو۱۱" ||
		rows[1][2] != "پیامک دریافتی" || !strings.HasPrefix(rows[1][3], persian.JalaliDateTime(time.Now())[:10]) {
		t.Fatalf("cancel11 export %v", rows)
	}

	r = f.must(200, "POST", "/blacklist/delete-list", map[string]any{"numbers": []string{"09121234567", "09000000000"}, "kind": "send"})
	if string(r.Data) != `{"deleted":1}` {
		t.Fatalf("delete: %s", r.Raw)
	}
	if _, total = entries("kind=send"); total != 3 {
		t.Fatalf("after delete %d", total)
	}
	if _, total = entries("kind=receive"); total != 1 {
		t.Fatal("deleting from one list touched another")
	}
}
