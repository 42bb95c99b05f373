package auth_test

import (
	"context"
	"testing"

	"github.com/hibiken/asynq"

	"github.com/chapar/chapar/internal/testing/testenv"
	"github.com/chapar/chapar/pkg/account"
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
