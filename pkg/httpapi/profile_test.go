package httpapi_test

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"image/gif"
	"image/png"
	"io"
	"mime/multipart"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/pquerna/otp/totp"

	"github.com/chapar/chapar/internal/testing/apitest"
	"github.com/chapar/chapar/pkg/auth"
	"github.com/chapar/chapar/pkg/plan"
	"github.com/chapar/chapar/pkg/profile"
	"github.com/chapar/chapar/pkg/review"
)

// realDetails is a valid real person's full profile.
func realDetails() map[string]any {
	return map[string]any{"first_name": "سارا", "last_name": "احمدی", "first_name_en": "Sara", "last_name_en": "Ahmadi",
		"national_code": "0499370899", "birth_date": "1370/05/12", "gender": "female",
		"email": "sara@example.ir", "city_code": "021", "landline": "88776655",
		"province": "تهران", "city": "تهران", "address": "خیابان آزادی، کوچه نهم، پلاک ۱۲", "postal_code": "1234567890"}
}

func legalDetails() map[string]any {
	d := realDetails()
	d["company_name"], d["company_name_en"] = "پیام‌رسان نوین", "Novin Payam"
	d["registration_number"], d["economic_number"], d["company_national_id"] = "123456", "411111111111", "10101234567"
	d["ceo_national_code"] = "0013542419"
	return d
}

// The profile form answers each bad field in Persian: national code checksums, the
// legal person's numbers, Latin-only fields, e-mail, landline and postal code.
func TestProfileValidationTable(t *testing.T) {
	e := apitest.Start(t, nil)
	e.Register("profowner", pw, "09121110001")
	tok := e.Login("profowner", pw)
	cases := []struct {
		name, personType, field string
		set                     map[string]any
	}{
		{"checksum", "real", "national_code", map[string]any{"national_code": "0499370898"}},
		{"nine digits", "real", "national_code", map[string]any{"national_code": "049937089"}},
		{"one digit repeated", "real", "national_code", map[string]any{"national_code": "1111111111"}},
		{"letters", "real", "national_code", map[string]any{"national_code": "04993708a9"}},
		{"first name missing", "real", "first_name", map[string]any{"first_name": " "}},
		{"persian in latin name", "real", "first_name_en", map[string]any{"first_name_en": "سارا"}},
		{"future birth date", "real", "birth_date", map[string]any{"birth_date": "1499/01/01"}},
		{"month 13", "real", "birth_date", map[string]any{"birth_date": "1370/13/01"}},
		{"bad person type", "robot", "person_type", nil},
		{"registration too short", "legal", "registration_number", map[string]any{"registration_number": "12"}},
		{"registration too long", "legal", "registration_number", map[string]any{"registration_number": "1234567890123456"}},
		{"economic 13 digits", "legal", "economic_number", map[string]any{"economic_number": "4111111111112"}},
		{"company id 12 digits", "legal", "company_national_id", map[string]any{"company_national_id": "101012345678"}},
		{"company id too short", "legal", "company_national_id", map[string]any{"company_national_id": "10"}},
		{"persian company latin", "legal", "company_name_en", map[string]any{"company_name_en": "نوین"}},
		{"ceo checksum", "legal", "ceo_national_code", map[string]any{"ceo_national_code": "0013542418"}},
		{"email", "real", "email", map[string]any{"email": "sara@localhost"}},
		{"city code 2 digits", "real", "city_code", map[string]any{"city_code": "21"}},
		{"landline letters", "real", "landline", map[string]any{"landline": "8877x655"}},
		{"postal code 9 digits", "real", "postal_code", map[string]any{"postal_code": "123456789"}},
		{"short address", "real", "address", map[string]any{"address": "تهران"}},
	}
	for _, c := range cases {
		d := realDetails()
		if c.personType == "legal" {
			d = legalDetails()
		}
		for k, v := range c.set {
			d[k] = v
		}
		r := e.Must(422, "POST", "/v1/api/user/update_profile", map[string]any{"person_type": c.personType, "details": d}, tok)
		msgs := r.Meta.Errors[c.field]
		if len(msgs) == 0 || !hasPersian(msgs[0]) {
			t.Errorf("%s: no Persian error on %s: %s", c.name, c.field, r.Raw)
		}
		if len(r.Meta.Errors) != 1 {
			t.Errorf("%s: other fields refused too: %v", c.name, r.Meta.Errors)
		}
	}
	var p profile.Profile
	e.Must(200, "GET", "/v1/api/user/show_profile", nil, tok).Decode(t, &p)
	if p.Details.NationalCode != "" || p.Complete {
		t.Fatalf("a refused form was saved: %+v", p)
	}
	// Persian digits are taken as Latin; the legal person is saved whole.
	d := legalDetails()
	d["national_code"], d["postal_code"] = "۰۴۹۹۳۷۰۸۹۹", "۱۲۳۴۵۶۷۸۹۰"
	e.Must(200, "POST", "/v1/api/user/update_profile", map[string]any{"person_type": "legal", "details": d}, tok).Decode(t, &p)
	if p.PersonType != "legal" || p.Details.NationalCode != "0499370899" || p.Details.PostalCode != "1234567890" || !p.Complete {
		t.Fatalf("saved profile %+v", p)
	}
	// One section is saved alone and leaves the others.
	e.Must(200, "POST", "/v1/api/user/update_profile", map[string]any{"section": "contact",
		"details": map[string]any{"email": "info@novin.ir", "city_code": "031", "landline": "3344556"}}, tok).Decode(t, &p)
	if p.Details.Email != "info@novin.ir" || p.Details.CompanyName != "پیام‌رسان نوین" || p.Details.PostalCode != "1234567890" {
		t.Fatalf("contact section %+v", p.Details)
	}
	var n int
	_ = e.DB.Pool.QueryRow(context.Background(), `SELECT count(*) FROM audit_log WHERE action = 'profile.update'`).Scan(&n)
	if n != 2 {
		t.Fatalf("audited %d profile updates, want 2", n)
	}
}

func hasPersian(s string) bool {
	return strings.ContainsAny(s, "ابپتثجچحخدذرزژسشصضطظعغفقکگلمنوهی")
}

// uploadFile posts one multipart file (and fields) and answers the response.
func uploadFile(e *apitest.Env, path, token, field, name string, data []byte, fields map[string]string) apitest.Response {
	var b bytes.Buffer
	w := multipart.NewWriter(&b)
	for k, v := range fields {
		_ = w.WriteField(k, v)
	}
	fw, _ := w.CreateFormFile(field, name)
	_, _ = fw.Write(data)
	_ = w.Close()
	return e.Do("POST", path, b.String(), token, "Content-Type", w.FormDataContentType())
}

func pngOf(w, h int) []byte {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for x := 0; x < w; x++ {
		img.Set(x, x%h, color.RGBA{R: 200, A: 255})
	}
	var b bytes.Buffer
	_ = png.Encode(&b, img)
	return b.Bytes()
}

// getBin fetches a binary answer with a token.
func getBin(t *testing.T, url, token string) (int, http.Header, []byte) {
	t.Helper()
	req, _ := http.NewRequest("GET", url, nil)
	req.Header.Set("Authorization", "Bearer "+token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, res.Header, b
}

// The logo is judged by its bytes: a renamed text file and a 2.5 MB image are
// refused; a PNG or GIF is scaled to 256 px and served back as PNG.
func TestProfileLogo(t *testing.T) {
	e := apitest.Start(t, nil)
	e.Register("logoowner", pw, "09121110002")
	tok := e.Login("logoowner", pw)
	r := uploadFile(e, "/v1/api/user/profile/logo", tok, "logo", "logo.png", []byte("just some text, not an image at all"), nil)
	if r.Status != 422 || len(r.Meta.Errors["logo"]) == 0 || r.Meta.Errors["logo"][0] != profile.MsgImageType {
		t.Fatalf("renamed text: %d %s", r.Status, r.Raw)
	}
	big := append(pngOf(10, 10), bytes.Repeat([]byte{0}, 2<<20+512<<10)...)
	r = uploadFile(e, "/v1/api/user/profile/logo", tok, "logo", "big.png", big, nil)
	if r.Status != 422 || r.Meta.Errors["logo"][0] != profile.MsgImageBig {
		t.Fatalf("oversize: %d %s", r.Status, r.Raw)
	}
	if code, _, _ := getBin(t, e.URL+"/v1/api/user/profile/logo", tok); code != 404 {
		t.Fatalf("no logo yet: %d", code)
	}
	r = uploadFile(e, "/v1/api/user/profile/logo", tok, "logo", "wide.png", pngOf(1024, 512), nil)
	if r.Status != 200 {
		t.Fatalf("png logo: %d %s", r.Status, r.Raw)
	}
	code, h, body := getBin(t, e.URL+"/v1/api/user/profile/logo", tok)
	cfg, format, err := image.DecodeConfig(bytes.NewReader(body))
	if code != 200 || h.Get("Content-Type") != "image/png" || err != nil || format != "png" || cfg.Width != 256 || cfg.Height != 128 {
		t.Fatalf("served logo %d %s %v %+v", code, format, err, cfg)
	}
	var g bytes.Buffer
	_ = gif.Encode(&g, image.NewPaletted(image.Rect(0, 0, 100, 300), color.Palette{color.Black, color.White}), nil)
	if r = uploadFile(e, "/v1/api/user/profile/logo", tok, "logo", "tall.jpg", g.Bytes(), nil); r.Status != 200 {
		t.Fatalf("gif logo: %d %s", r.Status, r.Raw)
	}
	_, _, body = getBin(t, e.URL+"/v1/api/user/profile/logo", tok)
	if cfg, _, _ = image.DecodeConfig(bytes.NewReader(body)); cfg.Width != 85 || cfg.Height != 256 {
		t.Fatalf("gif scaled to %+v", cfg)
	}
}

// pendingReview finds the pending review item of a subject.
func pendingReview(t *testing.T, e *apitest.Env, staffTok, kind string, subject int64) review.Item {
	t.Helper()
	var items []review.Item
	e.Must(200, "GET", "/v1/api/admin/reviews/items?kind="+kind, nil, staffTok).Decode(t, &items)
	for _, it := range items {
		if it.SubjectID == subject {
			return it
		}
	}
	t.Fatalf("no pending %s %d among %d", kind, subject, len(items))
	return review.Item{}
}

func decide(e *apitest.Env, staffTok string, itemID int64, verb string, body map[string]any) apitest.Response {
	return e.Do("POST", "/v1/api/admin/reviews/"+strconv.FormatInt(itemID, 10)+"/"+verb, body, staffTok)
}

// Documents go to staff review; the customer sees approval and the rejection reason;
// an approved document cannot be removed, a rejected one can; others never see them.
func TestDocumentReview(t *testing.T) {
	e := apitest.Start(t, nil)
	e.Register("docowner", pw, "09121110003")
	e.Register("docother", pw, "09121110004")
	tok, other := e.Login("docowner", pw), e.Login("docother", pw)
	stok := e.Staff("docstaff", "09121110005")
	pdf := []byte("%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n")
	if r := uploadFile(e, "/v1/api/user/documents/upload", tok, "file", "card.pdf", pdf, map[string]string{"kind": "spaceship"}); r.Status != 422 ||
		len(r.Meta.Errors["kind"]) == 0 {
		t.Fatalf("unknown kind: %s", r.Raw)
	}
	if r := uploadFile(e, "/v1/api/user/documents/upload", tok, "file", "card.pdf", []byte("MZ\x90\x00 not a pdf"), map[string]string{"kind": "national_card"}); r.Status != 422 ||
		r.Meta.Errors["file"][0] != profile.MsgDocType {
		t.Fatalf("renamed binary: %s", r.Raw)
	}
	var card, gazette profile.Document
	uploadFile(e, "/v1/api/user/documents/upload", tok, "file", "card.pdf", pdf, map[string]string{"kind": "national_card"}).Decode(t, &card)
	uploadFile(e, "/v1/api/user/documents/upload", tok, "file", "gazette.png", pngOf(40, 40), map[string]string{"kind": "official_gazette"}).Decode(t, &gazette)
	if card.Status != review.Pending || card.FileType != "application/pdf" || gazette.FileType != "image/png" {
		t.Fatalf("uploaded %+v %+v", card, gazette)
	}
	if r := uploadFile(e, "/v1/api/user/documents/upload", tok, "file", "again.pdf", pdf, map[string]string{"kind": "national_card"}); r.Status != 422 {
		t.Fatalf("second pending card: %s", r.Raw)
	}
	if code, _, body := getBin(t, e.URL+"/v1/api/user/documents/"+strconv.FormatInt(card.ID, 10)+"/file", tok); code != 200 || !bytes.Equal(body, pdf) {
		t.Fatalf("own file %d", code)
	}
	if code, _, _ := getBin(t, e.URL+"/v1/api/user/documents/"+strconv.FormatInt(card.ID, 10)+"/file", other); code != 404 {
		t.Fatalf("another account read the file: %d", code)
	}
	if code, _, body := getBin(t, e.URL+"/v1/api/admin/documents/"+strconv.FormatInt(card.ID, 10)+"/file", stok); code != 200 || !bytes.Equal(body, pdf) {
		t.Fatalf("staff file %d", code)
	}
	e.Must(200, "POST", "/v1/api/admin/reviews/"+strconv.FormatInt(pendingReview(t, e, stok, profile.DocumentKind, card.ID).ID, 10)+"/approve", map[string]any{}, stok)
	it := pendingReview(t, e, stok, profile.DocumentKind, gazette.ID)
	if r := decide(e, stok, it.ID, "reject", map[string]any{}); r.Status != 422 {
		t.Fatalf("reject without reason: %s", r.Raw)
	}
	decide(e, stok, it.ID, "reject", map[string]any{"reason": "تصویر خوانا نیست"})
	var list struct {
		Documents []profile.Document `json:"documents"`
	}
	e.Must(200, "GET", "/v1/api/user/documents", nil, tok).Decode(t, &list)
	status := map[int64]profile.Document{}
	for _, d := range list.Documents {
		status[d.ID] = d
	}
	if status[card.ID].Status != review.Approved || status[gazette.ID].Status != review.Rejected || status[gazette.ID].Reason != "تصویر خوانا نیست" {
		t.Fatalf("customer sees %+v", list.Documents)
	}
	e.Must(200, "GET", "/v1/api/user/documents", nil, other).Decode(t, &list)
	if len(list.Documents) != 0 {
		t.Fatalf("another account lists %d documents", len(list.Documents))
	}
	e.Must(409, "POST", "/v1/api/user/documents/remove", map[string]any{"id": card.ID}, tok)
	e.Must(404, "POST", "/v1/api/user/documents/remove", map[string]any{"id": gazette.ID}, other)
	e.Must(200, "POST", "/v1/api/user/documents/remove", map[string]any{"id": gazette.ID}, tok)
}

// loginCodeTo starts a login and reports whether the code texted to mobile opens it.
func loginCodeTo(t *testing.T, e *apitest.Env, username, mobile string) bool {
	t.Helper()
	var lr auth.LoginResult
	e.Must(200, "POST", "/v1/api/acl/auth/login", map[string]string{"username": username, "password": pw}, "").Decode(t, &lr)
	r := e.Do("POST", "/v1/api/acl/auth/confirm_otp", map[string]string{"login_token": lr.LoginToken, "code": e.LastCode(mobile)}, "")
	return r.Status == 200
}

// A mobile change proves the current number, then the new one, then waits for staff:
// the old number keeps receiving login codes until approval switches it (audited).
func TestMobileChangeFlow(t *testing.T) {
	e := apitest.Start(t, nil)
	const oldM, newM = "989121110006", "989351110007"
	e.Register("mobowner", pw, "09121110006")
	tok := e.Login("mobowner", pw)
	stok := e.Staff("mobstaff", "09121110008")
	var st profile.ChangeStep
	e.Must(200, "POST", "/v1/api/user/change_mobile/request_change_otp", nil, tok).Decode(t, &st)
	oldCode := e.LastCode(oldM)
	r := e.Must(422, "POST", "/v1/api/user/change_mobile/confirm_change_otp", map[string]string{"otp_token": st.OTPToken,
		"code": oldCode, "new_mobile": "0912111000"}, tok)
	if len(r.Meta.Errors["new_mobile"]) == 0 {
		t.Fatalf("bad new mobile: %s", r.Raw)
	}
	e.Must(422, "POST", "/v1/api/user/change_mobile/confirm_change_otp", map[string]string{"otp_token": st.OTPToken,
		"code": "000000", "new_mobile": "09351110007"}, tok)
	e.Must(200, "POST", "/v1/api/user/change_mobile/confirm_change_otp", map[string]string{"otp_token": st.OTPToken,
		"code": oldCode, "new_mobile": "۰۹۳۵۱۱۱۰۰۰۷"}, tok).Decode(t, &st)
	if st.ChangeID == 0 || st.MobileHint != "0935***0007" {
		t.Fatalf("second step %+v", st)
	}
	e.Must(409, "POST", "/v1/api/user/change_mobile/confirm_new_mobile", map[string]any{"change_id": st.ChangeID,
		"otp_token": "forged", "code": e.LastCode(newM)}, tok)
	var ch profile.MobileChange
	e.Must(200, "POST", "/v1/api/user/change_mobile/confirm_new_mobile", map[string]any{"change_id": st.ChangeID,
		"otp_token": st.OTPToken, "code": e.LastCode(newM)}, tok).Decode(t, &ch)
	if ch.Status != review.Pending || ch.NewMobile != newM || ch.OldMobile != oldM {
		t.Fatalf("change %+v", ch)
	}
	e.Must(409, "POST", "/v1/api/user/change_mobile/request_change_otp", nil, tok)
	// Until staff decide, the old number logs in and the new one does not.
	if !loginCodeTo(t, e, "mobowner", oldM) || loginCodeTo(t, e, "mobowner", newM) {
		t.Fatal("before approval the login code must go to the old number only")
	}
	var p profile.Profile
	e.Must(200, "GET", "/v1/api/user/show_profile", nil, tok).Decode(t, &p)
	if p.Mobile != oldM {
		t.Fatalf("mobile switched before approval: %s", p.Mobile)
	}
	it := pendingReview(t, e, stok, profile.MobileKind, ch.ID)
	e.Must(200, "POST", "/v1/api/admin/reviews/"+strconv.FormatInt(it.ID, 10)+"/approve", map[string]any{}, stok)
	e.Must(200, "GET", "/v1/api/user/show_profile", nil, tok).Decode(t, &p)
	e.Must(200, "GET", "/v1/api/user/change_mobile", nil, tok).Decode(t, &ch)
	if p.Mobile != newM || ch.Status != review.Approved {
		t.Fatalf("after approval: %s %+v", p.Mobile, ch)
	}
	if !loginCodeTo(t, e, "mobowner", newM) {
		t.Fatal("after approval the new number must log in")
	}
	var before, after string
	err := e.DB.Pool.QueryRow(context.Background(), `SELECT before->>'mobile', after->>'mobile' FROM audit_log
		WHERE action = 'profile.mobile_change'`).Scan(&before, &after)
	if err != nil || before != oldM || after != newM {
		t.Fatalf("audit %s → %s: %v", before, after, err)
	}
}

// A rejected change leaves the mobile and shows the reason; a new change may start.
func TestMobileChangeRejected(t *testing.T) {
	e := apitest.Start(t, nil)
	const oldM, newM = "989121110009", "989011110010"
	e.Register("mobrej", pw, "09121110009")
	tok := e.Login("mobrej", pw)
	stok := e.Staff("mobstaff2", "09121110011")
	ch := requestMobileChange(t, e, tok, oldM, newM)
	decide(e, stok, pendingReview(t, e, stok, profile.MobileKind, ch.ID).ID, "reject", map[string]any{"reason": "مدارک مالکیت خط لازم است"})
	var p profile.Profile
	e.Must(200, "GET", "/v1/api/user/show_profile", nil, tok).Decode(t, &p)
	e.Must(200, "GET", "/v1/api/user/change_mobile", nil, tok).Decode(t, &ch)
	if p.Mobile != oldM || ch.Status != review.Rejected || ch.Reason == "" {
		t.Fatalf("rejected: %s %+v", p.Mobile, ch)
	}
	e.Must(200, "POST", "/v1/api/user/change_mobile/request_change_otp", nil, tok)
}

// requestMobileChange runs the customer's three steps of a mobile change.
func requestMobileChange(t *testing.T, e *apitest.Env, tok, oldM, newM string) profile.MobileChange {
	t.Helper()
	var st profile.ChangeStep
	e.Must(200, "POST", "/v1/api/user/change_mobile/request_change_otp", nil, tok).Decode(t, &st)
	e.Must(200, "POST", "/v1/api/user/change_mobile/confirm_change_otp", map[string]string{"otp_token": st.OTPToken,
		"code": e.LastCode(oldM), "new_mobile": "0" + newM[2:]}, tok).Decode(t, &st)
	var ch profile.MobileChange
	e.Must(200, "POST", "/v1/api/user/change_mobile/confirm_new_mobile", map[string]any{"change_id": st.ChangeID,
		"otp_token": st.OTPToken, "code": e.LastCode(newM)}, tok).Decode(t, &ch)
	return ch
}

// Changing the password needs the current one and closes every other session.
func TestPasswordChangeEndsOtherSessions(t *testing.T) {
	e := apitest.Start(t, nil)
	e.Register("pwowner", pw, "09121110012")
	here, there := e.Login("pwowner", pw), e.Login("pwowner", pw)
	r := e.Must(422, "POST", "/v1/api/user/change_password", map[string]string{"current_password": "Wrong@12345",
		"password": "Fresh@Pass99", "password_confirmation": "Fresh@Pass99"}, here)
	if r.Meta.Errors["current_password"][0] != auth.MsgCurrentPassword {
		t.Fatalf("wrong current: %s", r.Raw)
	}
	r = e.Must(422, "POST", "/v1/api/user/change_password", map[string]string{"current_password": pw,
		"password": "short", "password_confirmation": "other"}, here)
	if len(r.Meta.Errors["password"]) == 0 || len(r.Meta.Errors["password_confirmation"]) == 0 {
		t.Fatalf("weak: %s", r.Raw)
	}
	e.Must(200, "GET", "/v1/api/acl/auth/check_token", nil, there)
	e.Must(200, "POST", "/v1/api/user/change_password", map[string]string{"current_password": pw,
		"password": "Fresh@Pass99", "password_confirmation": "Fresh@Pass99"}, here)
	e.Must(200, "GET", "/v1/api/acl/auth/check_token", nil, here)
	e.Must(401, "GET", "/v1/api/acl/auth/check_token", nil, there)
	e.Must(401, "POST", "/v1/api/acl/auth/login", map[string]string{"username": "pwowner", "password": pw}, "")
	e.Login("pwowner", "Fresh@Pass99")
}

// The sessions list marks the current one; one session can be closed, another user's
// cannot; "log out everywhere" closes them all.
func TestSessionsAndLogoutEverywhere(t *testing.T) {
	e := apitest.Start(t, nil)
	e.Register("sessowner", pw, "09121110013")
	e.Register("sessother", pw, "09121110014")
	a, b, c := e.Login("sessowner", pw), e.Login("sessowner", pw), e.Login("sessowner", pw)
	other := e.Login("sessother", pw)
	current := func(tok string) int64 {
		var list []auth.Session
		e.Must(200, "GET", "/v1/api/user/sessions", nil, tok).Decode(t, &list)
		var id int64
		for _, s := range list {
			if s.Current {
				id = s.ID
			}
		}
		if len(list) != 4 || id == 0 { // the three logins and the sign-up's session
			t.Fatalf("sessions %+v", list)
		}
		return id
	}
	bID := current(b)
	if current(a) == bID {
		t.Fatal("two tokens marked as one session")
	}
	e.Must(404, "POST", "/v1/api/user/sessions/"+strconv.FormatInt(bID, 10)+"/revoke", nil, other)
	e.Must(200, "GET", "/v1/api/acl/auth/check_token", nil, b)
	e.Must(200, "POST", "/v1/api/user/sessions/"+strconv.FormatInt(bID, 10)+"/revoke", nil, a)
	e.Must(401, "GET", "/v1/api/acl/auth/check_token", nil, b)
	e.Must(404, "POST", "/v1/api/user/sessions/"+strconv.FormatInt(bID, 10)+"/revoke", nil, a)
	// Without include_current the caller's own session stays; with it, none does.
	d := e.Login("sessowner", pw)
	e.Must(200, "POST", "/v1/api/user/sessions/revoke_all", nil, c)
	e.Must(401, "GET", "/v1/api/acl/auth/check_token", nil, a)
	e.Must(401, "GET", "/v1/api/acl/auth/check_token", nil, d)
	e.Must(200, "GET", "/v1/api/acl/auth/check_token", nil, c)
	d = e.Login("sessowner", pw)
	e.Must(200, "POST", "/v1/api/user/sessions/revoke_all", map[string]bool{"include_current": true}, c)
	for _, tok := range []string{c, d} {
		e.Must(401, "GET", "/v1/api/acl/auth/check_token", nil, tok)
	}
	e.Must(200, "GET", "/v1/api/acl/auth/check_token", nil, other)
}

// The authenticator app: the QR code is drawn server side, and once enabled the login
// asks for the app's code (generated here with the same library an app follows).
func TestTOTPSecondStep(t *testing.T) {
	e := apitest.Start(t, nil)
	e.Register("totpowner", pw, "09121110015")
	tok := e.Login("totpowner", pw)
	var qr auth.QR
	e.Must(200, "GET", "/v1/api/user/2fa/show_qr", nil, tok).Decode(t, &qr)
	if !strings.HasPrefix(qr.Image, "data:image/png;base64,") || !strings.Contains(qr.OTPAuthURL, "secret="+qr.Secret) {
		t.Fatalf("qr %.60s %s", qr.Image, qr.OTPAuthURL)
	}
	code, err := totp.GenerateCode(qr.Secret, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	e.Must(200, "POST", "/v1/api/user/2fa/enable", map[string]string{"method": "app", "code": code}, tok)
	var lr auth.LoginResult
	e.Must(200, "POST", "/v1/api/acl/auth/login", map[string]string{"username": "totpowner", "password": pw}, "").Decode(t, &lr)
	if lr.Method != "app" {
		t.Fatalf("login asks %q", lr.Method)
	}
	stale, _ := totp.GenerateCode(qr.Secret, time.Now().Add(-5*time.Minute))
	e.Must(422, "POST", "/v1/api/acl/auth/confirm_otp", map[string]string{"login_token": lr.LoginToken, "code": stale}, "")
	code, _ = totp.GenerateCode(qr.Secret, time.Now())
	e.Must(200, "POST", "/v1/api/acl/auth/confirm_otp", map[string]string{"login_token": lr.LoginToken, "code": code}, "")
}

// Tariffs show the account's per-operator prices; the calculator counts parts as a
// send does (Persian text: 70 then 67 characters a part) and prices each operator.
func TestTariffsAndCalculator(t *testing.T) {
	e := apitest.Start(t, nil)
	e.Register("tariffowner", pw, "09121110016")
	tok := e.Login("tariffowner", pw)
	var tf profile.Tariffs
	e.Must(200, "GET", "/v1/api/user/get_tariff", nil, tok).Decode(t, &tf)
	if len(tf.Operators) != 4 || tf.Operators[1].Operator != "irancell" || tf.Operators[1].SurchargePct != 10 ||
		tf.Operators[0].Encodings[1].SinglePart != 70 || tf.Operators[0].Encodings[0].OnePart != 190+40 {
		t.Fatalf("tariffs %+v", tf)
	}
	var calc profile.Calculation
	e.Must(200, "POST", "/v1/api/user/get_tariff/calculate", map[string]any{"text": strings.Repeat("س", 71), "count": 1000}, tok).Decode(t, &calc)
	price := map[string]int64{}
	for _, p := range calc.Prices {
		price[p.Operator] = p.Each
	}
	// Two parts: MCI 2×190 + 40; Irancell and Rightel add 10% to the parts.
	if calc.Parts != 2 || calc.Encoding != "ucs2" || price["mci"] != 420 || price["irancell"] != 458 || calc.Prices[1].Total != 458_000 {
		t.Fatalf("calculation %+v", calc)
	}
	e.Must(200, "POST", "/v1/api/user/get_tariff/calculate", map[string]any{"text": strings.Repeat("s", 160), "count": 1, "cancel11": true}, tok).Decode(t, &calc)
	if calc.Parts != 3 || calc.Encoding != "ucs2" {
		t.Fatalf("cancel-11 footer is Persian: %+v", calc)
	}
	e.Must(422, "POST", "/v1/api/user/get_tariff/calculate", map[string]any{"text": "hi", "count": 0}, tok)
}

// Settings are saved and audited; the plan lists UTM tracking as an upgrade.
func TestSettingsAndPlan(t *testing.T) {
	e := apitest.Start(t, nil)
	e.Register("setowner", pw, "09121110017")
	tok := e.Login("setowner", pw)
	var st profile.Settings
	e.Must(200, "GET", "/v1/api/user/setting", nil, tok).Decode(t, &st)
	if st.Cancel11Default {
		t.Fatalf("defaults %+v", st)
	}
	e.Must(200, "POST", "/v1/api/user/setting", map[string]any{"cancel11_default": true}, tok).Decode(t, &st)
	if !st.Cancel11Default || st.UpdatedAt == nil {
		t.Fatalf("saved %+v", st)
	}
	e.Must(200, "GET", "/v1/api/user/setting", nil, tok).Decode(t, &st)
	if !st.Cancel11Default {
		t.Fatalf("read back %+v", st)
	}
	var info profile.PlanInfo
	e.Must(200, "GET", "/v1/api/user/plan", nil, tok).Decode(t, &info)
	avail := map[string]bool{}
	for _, f := range info.Facilities {
		avail[f.Code] = f.Available
	}
	if info.Current.Code != "basic" || avail[plan.ServiceUTM] || !avail[plan.ServicePattern] {
		t.Fatalf("plan %+v", info)
	}
}
