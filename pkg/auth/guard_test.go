package auth_test

import (
	"fmt"
	"testing"

	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/auth"
	"github.com/chapar/chapar/pkg/config"
)

// wrong tries a wrong password n times as c and expects bad credentials each time.
func (r *rig) wrong(c auth.Client, name string, n int) {
	r.t.Helper()
	for range n {
		_, err := r.svc.Login(r.ctx, name, "Wrong@1234", c)
		refused(r.t, "a wrong password from "+c.IP, err, apperr.Unauthorized, "")
	}
}

// locked expects the right password refused as c with login-locked and a wait.
func (r *rig) locked(c auth.Client, name string) {
	r.t.Helper()
	_, err := r.svc.Login(r.ctx, name, pw, c)
	if e := refused(r.t, name+" from "+c.IP, err, apperr.RateLimited, auth.CodeLoginLocked); e.Message != auth.MsgLoginLocked || e.RetryAfter <= 0 {
		r.t.Fatalf("%s from %s: %+v", name, c.IP, e)
	}
}

// Strangers' wrong passwords never lock the owner's browser out. LoginPerUserPerMin a
// minute from one address shut the username for that address; past LoginUserLockAfter
// in an hour every client without a device token of the owner waits, even from an
// address the owner logged in from (a carrier's NAT shares and changes addresses). The
// owner's device token logs in from anywhere, until its own failures use its trust up.
func TestWrongPasswordsDontLockOwnerOut(t *testing.T) {
	// Low thresholds keep the argon2 checks few; the rules are the same at any.
	r := newRig(t, "10.4.0.2", func(c *config.Config) { c.LoginPerUserPerMin, c.LoginUserLockAfter = 3, 6 })
	const mobile = "09122223333"
	r.register("owner", mobile)
	dev := r.loginAt(r.at("10.4.0.2", ""), "owner", mobile).DeviceToken
	if dev == "" {
		t.Fatal("a login without a device token")
	}
	r.wrong(r.at("10.4.0.1", ""), "owner", r.cfg.LoginPerUserPerMin)
	r.locked(r.at("10.4.0.1", ""), "owner")
	if o := r.loginAt(r.at("10.4.0.1", dev), "owner", mobile); o.DeviceToken != dev {
		t.Fatalf("the owner's browser at the shut address: device %q, want %q", o.DeviceToken, dev)
	}
	r.loginAt(r.at("10.4.0.3", ""), "owner", mobile) // another address is not shut yet
	// More failures from another address reach the per-user threshold.
	r.wrong(r.at("10.4.0.5", ""), "owner", r.cfg.LoginUserLockAfter-r.cfg.LoginPerUserPerMin)
	r.locked(r.at("10.4.0.6", ""), "owner")
	r.locked(r.at("10.4.0.2", ""), "owner")              // the owner's earlier address earns nothing
	r.locked(r.at("10.4.0.7", "made-up-token"), "owner") // nor a token this server never issued
	r.loginAt(r.at("10.4.0.8", dev), "owner", mobile)
	if n := audits(t, "owner", "auth.login_locked"); n != 1 {
		t.Fatalf("%d audit records of the lock", n)
	}
	// A stolen device token is no master key: its own failures use its trust up.
	for i := range r.cfg.LoginUserLockAfter {
		r.wrong(r.at(fmt.Sprintf("10.4.1.%d", i), dev), "owner", 1)
	}
	r.locked(r.at("10.4.0.9", dev), "owner")
	// An unknown username is limited the same way (no enumeration by lock-out).
	r.wrong(r.at("10.4.0.4", ""), "ghost-login", r.cfg.LoginPerUserPerMin)
	r.locked(r.at("10.4.0.4", ""), "ghost-login")
}

// Every login attempt counts against its address, whatever the name and password:
// past LoginPerIPPerMin even a right password waits there, and another address logs in.
func TestLoginPerAddressLimit(t *testing.T) {
	r := newRig(t, "10.4.3.3", func(c *config.Config) { c.LoginPerIPPerMin = 4 })
	r.register("nazanin", "09124445555")
	for _, name := range []string{"addr1", "addr2", "addr3", "addr4"} {
		_, err := r.svc.Login(r.ctx, name, pw, r.c)
		refused(t, "an unknown name", err, apperr.Unauthorized, "")
	}
	_, err := r.svc.Login(r.ctx, "nazanin", pw, r.c)
	if e := refused(t, "past the address's limit", err, apperr.RateLimited, ""); e.RetryAfter <= 0 {
		t.Fatalf("limited without a wait: %+v", e)
	}
	r.loginAt(r.at("10.4.3.4", ""), "nazanin", "09124445555")
}

// The sign-up form's name check is limited per address: past CheckExistPerIPPerMin
// taken and free names alike wait; another address is answered.
func TestCheckExistThrottled(t *testing.T) {
	r := newRig(t, "10.2.2.2", func(c *config.Config) { c.CheckExistPerIPPerMin = 3 })
	r.register("taken", "09121239999")
	for _, c := range []struct {
		name  string
		taken bool
	}{{"taken", true}, {"free1", false}, {"free2", false}} {
		if taken, err := r.svc.UsernameTaken(r.ctx, c.name, r.c); err != nil || taken != c.taken {
			t.Fatalf("%s: taken %v %v", c.name, taken, err)
		}
	}
	for _, name := range []string{"taken", "free3"} {
		_, err := r.svc.UsernameTaken(r.ctx, name, r.c)
		if e := refused(t, "a check past the limit", err, apperr.RateLimited, ""); e.RetryAfter <= 0 {
			t.Fatalf("%s limited without a wait: %+v", name, e)
		}
	}
	if taken, err := r.svc.UsernameTaken(r.ctx, "taken", r.at("10.2.2.3", "")); err != nil || !taken {
		t.Fatalf("another address: %v %v", taken, err)
	}
}
