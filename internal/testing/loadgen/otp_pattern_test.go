package loadgen

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"time"
)

// The seeded accounts of `api seed-demo` (cmd/api/commands.go) the pattern
// variant works with: the demo customer and the back-office staff user.
const (
	demoUser, demoPassword                    = "demo", "Demo@12345"
	demoMobile                                = "989120000000"
	staffUser, staffPassword, staffMobileIntl = "admin", "Admin@12345", "989120000099"
	systemLine                                = "2000"
)

// patternState is what the setup leaves for later runs: the approved pattern's
// code and the API key that sends it.
type patternState struct {
	Code string `json:"code"`
	Key  string `json:"key"`
}

func patternMobile(i int) string { return fmt.Sprintf("98912777%04d", i) }

// usePattern prepares the pattern variant: sends of the approved OTP pattern
// from line, by API key, to patternMobile recipients. With setup it creates the
// pattern and key and writes them to stateFile; otherwise it reads them from it.
func (o *otpRun) usePattern(setup bool, stateFile, line string) error {
	var st patternState
	if setup {
		var err error
		if st, err = o.patternSetup(); err != nil {
			return err
		}
		if b, _ := json.Marshal(st); stateFile != "" {
			if err := os.WriteFile(stateFile, b, 0o600); err != nil {
				return err
			}
		}
	} else {
		b, err := os.ReadFile(stateFile)
		if err != nil {
			return fmt.Errorf("pattern state (run with LOADGEN_OTP_SETUP=1 first): %w", err)
		}
		if err := json.Unmarshal(b, &st); err != nil {
			return fmt.Errorf("pattern state %s: %w", stateFile, err)
		}
	}
	o.from, o.mobile = line, patternMobile
	o.ask = func(i, u int) error {
		return o.call(http.MethodPost, "/patterns/send", st.Key, map[string]any{"code": st.Code, "sender": line,
			"recipient": "0" + patternMobile(u)[2:], "values": map[string]string{"code": fmt.Sprintf("%06d", 100000+i)}}, nil)
	}
	return nil
}

// patternSetup signs the demo customer in, creates an OTP pattern carrying the
// account's brand, has the staff user approve it from the review queue and
// creates an API key (send.create) with the step-up code read at the simulator.
func (o *otpRun) patternSetup() (patternState, error) {
	var login struct{ Token string }
	if err := o.post("/acl/auth/login", map[string]string{"username": demoUser, "password": demoPassword}, &login); err != nil {
		return patternState{}, err
	}
	version, code, err := o.createPattern(login.Token)
	if err != nil {
		return patternState{}, err
	}
	if err := o.approve(version); err != nil {
		return patternState{}, err
	}
	key, err := o.createKey(login.Token)
	return patternState{Code: code, Key: key}, err
}

// createPattern creates the OTP pattern and returns its pending version and code.
func (o *otpRun) createPattern(tok string) (int64, string, error) {
	var brand struct{ Brand string }
	if err := o.call(http.MethodGet, "/patterns/brand", tok, nil, &brand); err != nil {
		return 0, "", err
	}
	var p struct {
		Code     string
		Versions []struct{ ID int64 }
	}
	err := o.call(http.MethodPost, "/patterns", tok, map[string]any{"title": "سنجش کد یک‌بارمصرف", "kind": "otp",
		"text":      brand.Brand + " کد ورود شما: %code%",
		"variables": []map[string]any{{"name": "code", "type": "integer", "length": 6}}}, &p)
	if err != nil {
		return 0, "", err
	}
	if len(p.Versions) == 0 {
		return 0, "", fmt.Errorf("pattern %s created without a version", p.Code)
	}
	return p.Versions[0].ID, p.Code, nil
}

// approve signs the staff user in (its second step read at the simulator) and
// approves the pattern version's review item.
func (o *otpRun) approve(version int64) error {
	since := time.Now().Add(-time.Second)
	var res struct {
		LoginToken string `json:"login_token"`
	}
	if err := o.post("/admin/auth/login", map[string]string{"username": staffUser, "password": staffPassword}, &res); err != nil {
		return err
	}
	code, err := o.codeAt(staffMobileIntl, since)
	if err != nil {
		return err
	}
	var staff struct{ Token string }
	if err := o.post("/acl/auth/confirm_otp", map[string]string{"login_token": res.LoginToken, "code": code}, &staff); err != nil {
		return err
	}
	var items []struct {
		ID        int64 `json:"id"`
		SubjectID int64 `json:"subject_id"`
	}
	if err := o.call(http.MethodGet, "/admin/reviews/items?kind=pattern", staff.Token, nil, &items); err != nil {
		return err
	}
	for _, it := range items {
		if it.SubjectID == version {
			return o.call(http.MethodPost, fmt.Sprintf("/admin/reviews/%d/approve", it.ID), staff.Token, map[string]string{"reason": ""}, nil)
		}
	}
	return fmt.Errorf("pattern version %d not in the review queue", version)
}

// createKey asks for the key's step-up code, reads it at the simulator and
// creates a key that may send.
func (o *otpRun) createKey(tok string) (string, error) {
	since := time.Now().Add(-time.Second)
	var step struct {
		OTPToken string `json:"otp_token"`
	}
	if err := o.call(http.MethodPost, "/acl/api_key/otp", tok, map[string]any{}, &step); err != nil {
		return "", err
	}
	code, err := o.codeAt(demoMobile, since)
	if err != nil {
		return "", err
	}
	var k struct{ Secret string }
	err = o.call(http.MethodPost, "/acl/api_key/create", tok, map[string]any{"title": "سنجش کد یک‌بارمصرف " + time.Now().Format("150405"),
		"scopes": []string{"send.create"}, "otp_token": step.OTPToken, "code": code}, &k)
	return k.Secret, err
}

// codeAt waits (up to 30 s) for the system line's newest message to mobile since
// t and returns its code.
func (o *otpRun) codeAt(mobile string, since time.Time) (string, error) {
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		msgs, err := o.messagesFrom(systemLine, mobile, since)
		if err == nil && len(msgs) > 0 {
			return codeIn(msgs[len(msgs)-1].Text), nil
		}
	}
	return "", fmt.Errorf("no code from line %s reached %s", systemLine, mobile)
}
