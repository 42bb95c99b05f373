package httpapi_test

import (
	"testing"

	"github.com/chapar/chapar/internal/testing/apitest"
	"github.com/chapar/chapar/pkg/config"
)

// Every route that checks the signed-in user's password (turning two-step login off,
// changing the password) draws on one per-user budget a minute: past it even the
// right password is refused with 429, on either route, so neither can be used to
// guess the password (issue 38 item 21).
func TestPasswordCheckingRoutesAreRateLimited(t *testing.T) {
	e := apitest.Start(t, func(c *config.Config) { c.OTPConfirmPerMin = 3 })
	e.Register("guarded", pw, "09121238811")
	tok := e.Login("guarded", pw)
	for range 3 {
		e.Must(422, "POST", "/v1/api/user/2fa/disable", map[string]string{"password": "wrong-guess"}, tok)
	}
	e.Must(429, "POST", "/v1/api/user/2fa/disable", map[string]string{"password": pw}, tok)
	e.Must(429, "POST", "/v1/api/user/change_password", map[string]string{"current_password": pw,
		"password": "Another-Pass-1234", "password_confirmation": "Another-Pass-1234"}, tok)
}
