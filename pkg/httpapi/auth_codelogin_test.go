package httpapi_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chapar/chapar/internal/testing/apitest"
	"github.com/chapar/chapar/pkg/auth"
	"github.com/chapar/chapar/pkg/config"
)

// codeOwner signs an owner up, turns two-step login off (code login is closed to
// two-step accounts) and returns a device token of a password login.
func codeOwner(e *apitest.Env, username, mobile string) (device string) {
	e.T.Helper()
	e.Register(username, pw, mobile)
	tok := e.Login(username, pw)
	e.Must(200, "POST", "/v1/api/user/2fa/disable", map[string]string{"password": pw}, tok)
	var lr auth.LoginResult
	e.Must(200, "POST", "/v1/api/acl/auth/login", map[string]string{"username": username, "password": pw}, "").Decode(e.T, &lr)
	if lr.Token == "" || lr.DeviceToken == "" {
		e.T.Fatalf("a login without two-step: %+v", lr)
	}
	return lr.DeviceToken
}

// startCode asks for a code login from ip with a device token ("" for none).
func startCode(e *apitest.Env, ip, name, device string) (auth.CodeLogin, apitest.Response) {
	e.T.Helper()
	r := e.Must(200, "POST", "/v1/api/acl/auth/login_otp", map[string]string{"username": name, "device_token": device}, "",
		from(ip)...)
	var cl auth.CodeLogin
	r.Decode(e.T, &cl)
	if !cl.OTPRequired || cl.LoginToken == "" {
		e.T.Fatalf("code login of %q: %s", name, r.Raw)
	}
	return cl, r
}

// confirmCode confirms a code login from ip and returns the session and device tokens.
func confirmCode(e *apitest.Env, ip, loginToken, code, device string) auth.Opened {
	e.T.Helper()
	var o auth.Opened
	e.Must(200, "POST", "/v1/api/acl/auth/confirm_otp", map[string]string{"login_token": loginToken, "code": code,
		"device_token": device}, "", from(ip)...).Decode(e.T, &o)
	if o.Token == "" || o.DeviceToken == "" {
		e.T.Fatalf("confirm gave %+v", o)
	}
	e.Must(200, "GET", "/v1/api/acl/auth/check_token", nil, o.Token)
	return o
}

// A code login answers every name alike (same fields, same values but the token, no
// digit of any mobile): a customer fit for it by username or by mobile in any writing,
// and an unknown name, an unknown number, a two-step account, an unproven mobile and
// a staff user. Only the fit customer is texted a code; the two-step owner is told
// (once an hour) why none came.
func TestCodeLoginAnswersAlike(t *testing.T) {
	e := apitest.Start(t, trustLocalProxy)
	codeOwner(e, "mina", "09351234567")
	e.Register("tina", pw, "09351112233") // two-step login on, as every sign-up
	e.RegisterUnverified("nina", pw, "09351114455")
	addStaff(t, e, "support1")
	cases := []struct {
		name, mobile string
		code         bool
	}{
		{"mina", "989351234567", true}, {"۰۹۳۵ ۱۲۳ ۴۵۶۷", "989351234567", true}, {"+98 935 123 4567", "989351234567", true},
		{" MINA ", "989351234567", true}, {"ghost", "", false}, {"09351230000", "989351230000", false},
		{"tina", "989351112233", false}, {"09351112233", "989351112233", false}, {"nina", "989351114455", false},
		{"support1", "989120009901", false}, {"09120009901", "989120009901", false},
	}
	var want map[string]any
	for i, c := range cases {
		before := len(e.Codes(c.mobile))
		_, r := startCode(e, fmt.Sprintf("10.4.0.%d", i), c.name, "")
		var got map[string]any
		if err := json.Unmarshal(r.Data, &got); err != nil {
			t.Fatal(err)
		}
		delete(got, "login_token")
		shown, _ := json.Marshal(got)
		for _, digits := range []string{"935", "4567", "2233", "0009901", "mobile"} {
			if strings.Contains(string(shown), digits) {
				t.Fatalf("%q: the answer shows %s: %s", c.name, digits, r.Raw)
			}
		}
		if want == nil {
			want = got
		} else if string(shown) != mustJSON(t, want) {
			t.Fatalf("%q answers %s, the first %s", c.name, shown, mustJSON(t, want))
		}
		if sent := len(e.Codes(c.mobile)) - before; c.mobile != "" && sent != map[bool]int{true: 1}[c.code] {
			t.Fatalf("%q: %d codes sent", c.name, sent)
		}
	}
	if n := e.Notices("989351112233"); len(n) != 1 || n[0] != auth.MsgNoticeCodeLoginTwoStep {
		t.Fatalf("two-step owner's notices %q", n)
	}
	if auditCount(e, "auth.login_code_closed") != 1 {
		t.Fatal("the refused code login is not in the owner's audit log")
	}
	if len(e.Notices("989120009901")) != 0 || len(e.Notices("989351114455")) != 0 {
		t.Fatal("staff or an unproven mobile was told about code login")
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// resendCode asks for a new code by method once the countdown allows it (the
// countdown's 429 otp-wait is waited out).
func resendCode(e *apitest.Env, loginToken, method string) {
	e.T.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		r := e.Do("POST", "/v1/api/acl/auth/send_sms_otp", map[string]string{"login_token": loginToken, "method": method}, "")
		if r.Status == 200 {
			return
		}
		if r.Status != 429 || r.Meta.MessageCode != "otp-wait" || time.Now().After(deadline) {
			e.T.Fatalf("resend: %s", r.Raw)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// A texted code logs in: the voice call is the resend's alternative, the replaced
// code is wrong, the new one works typed in Persian digits, the session is audited as
// a code login and the login token is spent.
func TestCodeLoginOpensSession(t *testing.T) {
	e := apitest.Start(t, nil)
	codeOwner(e, "sara", "09351230001")
	cl, _ := startCode(e, "127.0.0.1", "09351230001", "")
	first := e.LastCode("989351230001")
	if len(first) != 6 || !strings.Contains(e.Codes("989351230001")[len(e.Codes("989351230001"))-1].Text, "رمز یکبار مصرف") {
		t.Fatalf("code login texts: %+v", e.Codes("989351230001"))
	}
	resendCode(e, cl.LoginToken, "voice")
	codes := e.Codes("989351230001")
	if last := codes[len(codes)-1]; !last.Voice || apitest.CodeIn(last.Text) == first {
		t.Fatalf("the resend: %+v", last)
	}
	e.Must(422, "POST", "/v1/api/acl/auth/confirm_otp", map[string]string{"login_token": cl.LoginToken, "code": first}, "")
	o := confirmCode(e, "127.0.0.1", cl.LoginToken, toPersian(e.LastCode("989351230001")), "")
	if auditCount(e, "auth.login_code") != 1 {
		t.Fatal("no audit record of the code login")
	}
	r := e.Must(401, "POST", "/v1/api/acl/auth/confirm_otp", map[string]string{"login_token": cl.LoginToken,
		"code": e.LastCode("989351230001")}, "")
	if r.Meta.MessageCode != auth.CodeOTPTimeout {
		t.Fatalf("a spent login token: %s", r.Raw)
	}
	// The device token of this login is the browser's from now on.
	cl, _ = startCode(e, "127.0.0.1", "sara", o.DeviceToken)
	if again := confirmCode(e, "127.0.0.1", cl.LoginToken, e.LastCode("989351230001"), o.DeviceToken); again.DeviceToken != o.DeviceToken {
		t.Fatalf("device token changed: %q → %q", o.DeviceToken, again.DeviceToken)
	}
}

// Wrong codes lock the challenge after OTPMaxTries (then even the right code is
// refused) and count toward the name's login lock-out, which then shuts code and
// password logins of untrusted clients alike.
func TestCodeLoginWrongCodesLock(t *testing.T) {
	e := apitest.Start(t, func(c *config.Config) { trustLocalProxy(c); c.LoginUserLockAfter = 8 })
	dev := codeOwner(e, "reza", "09351230002")
	cl, _ := startCode(e, "10.5.0.1", "reza", "")
	code := e.LastCode("989351230002")
	for i := 1; i < e.Config.OTPMaxTries; i++ {
		r := e.Must(422, "POST", "/v1/api/acl/auth/confirm_otp", map[string]string{"login_token": cl.LoginToken, "code": wrongCode(code)}, "",
			from("10.5.0.1")...)
		if r.Meta.Errors["code"][0] != fmt.Sprintf("%s؛ %s تلاش دیگر باقی مانده است", auth.MsgOTPWrong, toPersian(strconv.Itoa(e.Config.OTPMaxTries-i))) {
			t.Fatalf("wrong code %d: %s", i, r.Raw)
		}
	}
	for _, c := range []string{wrongCode(code), code} {
		r := e.Must(401, "POST", "/v1/api/acl/auth/confirm_otp", map[string]string{"login_token": cl.LoginToken, "code": c}, "", from("10.5.0.1")...)
		if r.Meta.MessageCode != auth.CodeOTPLocked {
			t.Fatalf("locked challenge: %s", r.Raw)
		}
	}
	if n := auditCount(e, "auth.login_failed"); n != e.Config.OTPMaxTries {
		t.Fatalf("%d failed logins audited, want %d", n, e.Config.OTPMaxTries)
	}
	cl, _ = startCode(e, "10.5.0.2", "reza", "")
	for i := e.Config.OTPMaxTries; i < e.Config.LoginUserLockAfter; i++ {
		e.Must(422, "POST", "/v1/api/acl/auth/confirm_otp", map[string]string{"login_token": cl.LoginToken, "code": wrongCode(code)}, "",
			from("10.5.0.2")...)
	}
	for _, ip := range []string{"10.5.0.3", "10.5.0.4"} {
		r := e.Must(429, "POST", "/v1/api/acl/auth/login_otp", map[string]string{"username": "reza"}, "", from(ip)...)
		if r.Meta.MessageCode != auth.CodeLoginLocked {
			t.Fatalf("code login of a locked name: %s", r.Raw)
		}
	}
	passwordLocked(e, "10.5.0.5", "reza", "")
	if auditCount(e, "auth.login_locked") != 1 {
		t.Fatal("no audit record of the lock")
	}
	// The owner's browser still logs in by code.
	cl, _ = startCode(e, "10.5.0.6", "reza", dev)
	confirmCode(e, "10.5.0.6", cl.LoginToken, e.LastCode("989351230002"), dev)
}

// A two-step account loses no factor: a code login texts no code, its token opens
// nothing whatever is typed and resends send nothing; the password login still asks
// for the second step. A code sent before two-step login was turned on no longer logs
// in.
func TestCodeLoginKeepsTwoStep(t *testing.T) {
	e := apitest.Start(t, nil)
	e.Register("tara", pw, "09351230003")
	sent := len(e.Codes("989351230003"))
	cl, _ := startCode(e, "127.0.0.1", "tara", "")
	e.Must(422, "POST", "/v1/api/acl/auth/confirm_otp", map[string]string{"login_token": cl.LoginToken, "code": "123456"}, "")
	resendCode(e, cl.LoginToken, "sms")
	startCode(e, "127.0.0.1", "09351230003", "")
	if n := len(e.Codes("989351230003")); n != sent {
		t.Fatalf("%d codes to a two-step account's number", n-sent)
	}
	if n := e.Notices("989351230003"); len(n) != 1 {
		t.Fatalf("notices %q, want one an hour", n)
	}
	var lr auth.LoginResult
	e.Must(200, "POST", "/v1/api/acl/auth/login", map[string]string{"username": "tara", "password": pw}, "").Decode(t, &lr)
	if !lr.OTPRequired || lr.Token != "" {
		t.Fatalf("password login of a two-step account: %+v", lr)
	}

	codeOwner(e, "sima", "09351230004")
	cl, _ = startCode(e, "127.0.0.1", "sima", "")
	code := e.LastCode("989351230004")
	tok := e.Login("sima", pw)
	e.Must(200, "POST", "/v1/api/user/2fa/enable", map[string]string{"method": "sms"}, tok)
	r := e.Must(401, "POST", "/v1/api/acl/auth/confirm_otp", map[string]string{"login_token": cl.LoginToken, "code": code}, "")
	if r.Meta.MessageCode != auth.CodeOTPTimeout {
		t.Fatalf("a code login after two-step was turned on: %s", r.Raw)
	}
}

// A number several users proved names nobody: no code, and its holder is told to use
// the username, which still works. A suspended account's owner gets the code and,
// once it is confirmed, the suspension notice.
func TestCodeLoginSharedNumberAndSuspension(t *testing.T) {
	e := apitest.Start(t, nil)
	codeOwner(e, "shop1", "09351230005")
	codeOwner(e, "shop2", "09351230005")
	sent := len(e.Codes("989351230005"))
	startCode(e, "127.0.0.1", "09351230005", "")
	if len(e.Codes("989351230005")) != sent {
		t.Fatal("a code to a shared number")
	}
	if n := e.Notices("989351230005"); len(n) != 1 || n[0] != auth.MsgNoticeCodeLoginShared {
		t.Fatalf("notices %q", n)
	}
	cl, _ := startCode(e, "127.0.0.1", "shop2", "")
	o := confirmCode(e, "127.0.0.1", cl.LoginToken, e.LastCode("989351230005"), "")
	var me struct {
		UserName string `json:"user_name"`
	}
	e.Must(200, "GET", "/v1/api/acl/auth/check_token", nil, o.Token).Decode(t, &me)
	if me.UserName != "shop2" {
		t.Fatalf("logged in as %q", me.UserName)
	}

	stok := addStaff(t, e, "support2")
	u, err := e.Accounts.ByUsername(context.Background(), "shop1")
	if err != nil {
		t.Fatal(err)
	}
	e.Must(200, "POST", "/v1/api/admin/accounts/"+strconv.FormatInt(u.AccountID, 10)+"/status", map[string]any{"status": "suspended"}, stok)
	cl, _ = startCode(e, "127.0.0.1", "shop1", "")
	r := e.Must(403, "POST", "/v1/api/acl/auth/confirm_otp", map[string]string{"login_token": cl.LoginToken, "code": e.LastCode("989351230005")}, "")
	if r.Meta.Message != auth.MsgSuspended {
		t.Fatalf("a suspended owner's code login: %s", r.Raw)
	}
}

// A stranger's failures shut untrusted clients out, the owner's device token still
// logs in by code from a new address; and a stranger asking codes for the owner's
// number uses up only the untrusted day's budget, never the owner's.
func TestStrangerCannotLockOrDrainTheOwner(t *testing.T) {
	e := apitest.Start(t, func(c *config.Config) { trustLocalProxy(c); c.LoginUserLockAfter = 5; c.OTPPerNumberPerDay = 3 })
	const mobile = "989351230006"
	dev := codeOwner(e, "omid", "09351230006") // the sign-up's and the two-step login's codes: two of three
	for i := 0; i < 3; i++ {                   // one real code, then decoys
		startCode(e, fmt.Sprintf("10.6.0.%d", i), "omid", "")
	}
	untrusted := len(e.Codes(mobile))
	if untrusted != 3 {
		t.Fatalf("%d codes, want the day's 3", untrusted)
	}
	for i := 0; i < e.Config.LoginUserLockAfter; i++ {
		e.Must(401, "POST", "/v1/api/acl/auth/login", map[string]string{"username": "omid", "password": "Wrong@1234"}, "",
			from(fmt.Sprintf("10.6.1.%d", i))...)
	}
	r := e.Must(429, "POST", "/v1/api/acl/auth/login_otp", map[string]string{"username": "omid", "device_token": "forged"}, "",
		from("10.6.2.1")...)
	if r.Meta.MessageCode != auth.CodeLoginLocked {
		t.Fatalf("an untrusted code login of a locked name: %s", r.Raw)
	}
	for i := 0; i < 2; i++ { // the owner's browser, at a new address each time (carrier NAT)
		ip := fmt.Sprintf("10.6.3.%d", i)
		cl, _ := startCode(e, ip, "omid", dev)
		if n := len(e.Codes(mobile)); n != untrusted+i+1 {
			t.Fatalf("the owner's code %d was not sent (%d codes)", i, n)
		}
		confirmCode(e, ip, cl.LoginToken, e.LastCode(mobile), dev)
	}
	if tok, _ := loginDevice(e, "10.6.3.9", "omid", pw, mobile, dev); tok == "" {
		t.Fatal("the owner's password login")
	}
}

// A password reset, a password change and «log out everywhere» forget the user's
// device tokens: a forgotten token is untrusted again.
func TestDeviceTokensForgotten(t *testing.T) {
	e := apitest.Start(t, func(c *config.Config) { trustLocalProxy(c); c.LoginUserLockAfter = 3 })
	ctx := context.Background()
	devices := func(username string) int {
		var n int
		if err := e.DB.Pool.QueryRow(ctx, `SELECT count(*) FROM device_tokens d JOIN users u ON u.id = d.user_id
			WHERE u.username = $1`, username).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	dev := codeOwner(e, "babak", "09351230007")
	if n := devices("babak"); n != 3 { // the sign-up's session and two logins, none presenting a token
		t.Fatalf("%d device tokens after three sessions", n)
	}
	resetPassword(e, "babak", "989351230007", "Newpass@2025")
	if devices("babak") != 0 {
		t.Fatal("device tokens survive the reset")
	}
	for i := 0; i < e.Config.LoginUserLockAfter; i++ {
		e.Must(401, "POST", "/v1/api/acl/auth/login", map[string]string{"username": "babak", "password": pw}, "", from(fmt.Sprintf("10.7.0.%d", i))...)
	}
	r := e.Must(429, "POST", "/v1/api/acl/auth/login", map[string]string{"username": "babak", "password": "Newpass@2025",
		"device_token": dev}, "", from("10.7.1.1")...)
	if r.Meta.MessageCode != auth.CodeLoginLocked {
		t.Fatalf("a forgotten device token: %s", r.Raw)
	}

	codeOwner(e, "parisa", "09351230008")
	tok := e.Login("parisa", pw)
	e.Must(200, "POST", "/v1/api/user/change_password", map[string]string{"current_password": pw, "password": "Newpass@2025",
		"password_confirmation": "Newpass@2025"}, tok)
	if devices("parisa") != 0 {
		t.Fatal("device tokens survive a password change")
	}
	e.Login("parisa", "Newpass@2025")
	if devices("parisa") != 1 {
		t.Fatal("no device token after the new login")
	}
	e.Must(200, "POST", "/v1/api/user/sessions/revoke_all", map[string]any{}, tok)
	if devices("parisa") != 0 {
		t.Fatal("device tokens survive «log out everywhere»")
	}
}
