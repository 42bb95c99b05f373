package auth_test

import (
	"context"
	"testing"

	"github.com/hibiken/asynq"

	"github.com/chapar/chapar/internal/testing/testenv"
	"github.com/chapar/chapar/pkg/account"
	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/auth"
	"github.com/chapar/chapar/pkg/config"
	"github.com/chapar/chapar/pkg/ratelimit"
	"github.com/chapar/chapar/pkg/validate"
)

const pw = "Secret@1234"

// rig is the login service as the API wires it, on the package's stores, with a
// client address of the test's own (the per-address limits are kept in Redis).
type rig struct {
	t   *testing.T
	ctx context.Context
	svc *auth.Service
	cfg config.Config
	c   auth.Client
}

func newRig(t *testing.T, ip string, tweak func(*config.Config)) *rig {
	t.Helper()
	cfg, err := config.Load()
	if err != nil {
		t.Fatal(err)
	}
	cfg.RegisterPerIPPerHour, cfg.OTPPerNumberPerDay = 1000, 1000
	if tweak != nil {
		tweak(&cfg)
	}
	queue := asynq.NewClient(asynq.RedisClientOpt{Addr: shared.Redis.Addr, DB: shared.Redis.DB})
	t.Cleanup(func() { queue.Close() })
	svc := auth.New(shared.DB.Pool, cfg, account.New(shared.DB.Pool), queue, ratelimit.New(shared.Redis.Client, "rl:"))
	return &rig{t: t, ctx: context.Background(), svc: svc, cfg: cfg, c: auth.Client{IP: ip, UserAgent: "auth test"}}
}

// register signs an owner up and proves the mobile (09…) with the texted code.
func (r *rig) register(username, mobile string) {
	r.t.Helper()
	reg, err := r.svc.Register(r.ctx, account.RegisterInput{Name: "کاربر " + username, Username: username, Mobile: mobile,
		Password: pw, PasswordConfirmation: pw, AcceptRules: true}, r.c)
	if err != nil {
		r.t.Fatalf("register %s: %v", username, err)
	}
	if _, err := r.svc.VerifyRegistration(r.ctx, reg.VerifyToken, r.code(mobile), r.c); err != nil {
		r.t.Fatalf("verify %s: %v", username, err)
	}
}

// code is the newest code texted to a mobile (09…).
func (r *rig) code(mobile string) string {
	r.t.Helper()
	intl, _ := validate.NormalizeMobile(mobile)
	return testenv.LastCode(r.t, shared.Redis, intl)
}

// login logs in with the password and expects a second step.
func (r *rig) login(username string) auth.LoginResult {
	r.t.Helper()
	lr, err := r.svc.Login(r.ctx, username, pw, r.c)
	if err != nil || !lr.OTPRequired || lr.LoginToken == "" || lr.Token != "" {
		r.t.Fatalf("login %s: %+v %v", username, lr, err)
	}
	return lr
}

// confirm finishes a login with its code and returns the session token.
func (r *rig) confirm(lr auth.LoginResult, code string) string {
	r.t.Helper()
	op, err := r.svc.ConfirmLogin(r.ctx, lr.LoginToken, code, r.c)
	if err != nil || op.Token == "" {
		r.t.Fatalf("confirm: %+v %v", op, err)
	}
	return op.Token
}

// at is the rig's client calling from ip with a device token (none when empty).
func (r *rig) at(ip, device string) auth.Client {
	return auth.Client{IP: ip, UserAgent: r.c.UserAgent, Device: device}
}

// loginAt logs in as c with the password, finishes the second step with the code
// texted to mobile (09…) and returns the session and the device token to keep.
func (r *rig) loginAt(c auth.Client, username, mobile string) auth.Opened {
	r.t.Helper()
	lr, err := r.svc.Login(r.ctx, username, pw, c)
	if err != nil || !lr.OTPRequired {
		r.t.Fatalf("login %s from %s: %+v %v", username, c.IP, lr, err)
	}
	o, err := r.svc.ConfirmLogin(r.ctx, lr.LoginToken, r.code(mobile), c)
	if err != nil || o.Token == "" {
		r.t.Fatalf("confirm %s from %s: %+v %v", username, c.IP, o, err)
	}
	return o
}

// identity is who a session token names.
func (r *rig) identity(token string) acl.Identity {
	r.t.Helper()
	id, err := r.svc.Authenticate(r.ctx, token)
	if err != nil {
		r.t.Fatalf("authenticate: %v", err)
	}
	return id
}

// signIn registers a user and returns the identity of a session of theirs.
func (r *rig) signIn(username, mobile string) acl.Identity {
	r.t.Helper()
	r.register(username, mobile)
	return r.identity(r.confirm(r.login(username), r.code(mobile)))
}

// resendDue ends the resend countdown of the challenges asked for a name (the
// username lower-cased), as if its wait had passed.
func (r *rig) resendDue(subject string) {
	r.t.Helper()
	if _, err := shared.DB.Pool.Exec(r.ctx, `UPDATE challenges SET resend_at = now() - interval '1 second'
		WHERE subject = $1`, subject); err != nil {
		r.t.Fatal(err)
	}
}

// count is the number a query of the package's database answers.
func count(t *testing.T, sql string, args ...any) int {
	t.Helper()
	return testenv.Scalar[int](t, shared.DB, sql, args...)
}

// audits counts a user's audit entries of an action.
func audits(t *testing.T, username, action string) int {
	t.Helper()
	return count(t, `SELECT count(*) FROM audit_log WHERE action = $2
		AND user_id = (SELECT id FROM users WHERE username = $1)`, username, action)
}

// notices are the texts of the security notices queued for a mobile (98…).
func notices(t *testing.T, mobile string) []string {
	t.Helper()
	var out []string
	for _, v := range testenv.Queued(t, shared.Redis, mobile) {
		if v.Purpose == auth.PurposeNotice {
			out = append(out, v.Text)
		}
	}
	return out
}

// other is a code that is not code.
func other(code string) string {
	if code == "000000" {
		return "111111"
	}
	return "000000"
}

// refused fails unless err is an apperr of kind with code (any code when empty).
func refused(t *testing.T, what string, err error, kind apperr.Kind, code string) *apperr.Error {
	t.Helper()
	e, ok := apperr.As(err)
	if !ok || e.Kind != kind || (code != "" && e.Code != code) {
		t.Fatalf("%s: %v, want kind %v code %q", what, err, kind, code)
	}
	return e
}

// shared is the package's one migrated database and Redis database (TestMain).
var shared testenv.Shared

func TestMain(m *testing.M) { testenv.Main(m, true, &shared) }
