package colleague_test

import (
	"context"
	"errors"
	"strconv"
	"testing"

	"github.com/hibiken/asynq"

	"github.com/chapar/chapar/internal/testing/testenv"
	"github.com/chapar/chapar/pkg/account"
	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/auth"
	"github.com/chapar/chapar/pkg/colleague"
	"github.com/chapar/chapar/pkg/config"
	"github.com/chapar/chapar/pkg/ratelimit"
	"github.com/chapar/chapar/pkg/validate"
)

// rig is the colleague service as the API wires it (the real session service, the
// queue and the rate limits on Redis) and an account owner.
type rig struct {
	t     *testing.T
	ctx   context.Context
	svc   *colleague.Service
	owner acl.Identity
}

func newRig(t *testing.T, limits colleague.Limits) *rig {
	t.Helper()
	cfg, err := config.Load()
	if err != nil {
		t.Fatal(err)
	}
	opt := asynq.RedisClientOpt{Addr: shared.Redis.Addr, DB: shared.Redis.DB}
	queue := asynq.NewClient(opt)
	t.Cleanup(func() { queue.Close() })
	limiter := ratelimit.New(shared.Redis.Client, "rl:")
	sessions := auth.New(shared.DB.Pool, cfg, account.New(shared.DB.Pool), queue, limiter)
	limits.Limiter = limiter
	r := &rig{t: t, ctx: context.Background(),
		svc: colleague.New(shared.DB.Pool, queue, "colleague test secret", sessions, limits)}
	r.owner = r.newOwner()
	return r
}

// newOwner creates an account and its owner, named after the test.
func (r *rig) newOwner() acl.Identity {
	r.t.Helper()
	id := acl.Identity{IsOwner: true, Username: "owner-" + r.t.Name()}
	err := shared.DB.Pool.QueryRow(r.ctx, `WITH a AS (INSERT INTO accounts (name) VALUES ($1) RETURNING id)
		INSERT INTO users (account_id, username, password_hash, is_owner) SELECT id, $1, 'x', true FROM a
		RETURNING account_id, id`, id.Username).Scan(&id.AccountID, &id.UserID)
	if err != nil {
		r.t.Fatal(err)
	}
	return id
}

// role creates a role as the owner and returns its id.
func (r *rig) role(name string, perms ...acl.Permission) int64 {
	r.t.Helper()
	role, err := r.svc.CreateRole(r.ctx, r.owner, colleague.RoleInput{Name: name, Permissions: perms}, "")
	if err != nil {
		r.t.Fatalf("role %s: %v", name, err)
	}
	return role.ID
}

// invite adds a colleague with the role as the owner; they are pending.
func (r *rig) invite(mobile string, roleID int64) colleague.Colleague {
	r.t.Helper()
	c, err := r.svc.Create(r.ctx, r.owner, input(mobile, roleID), "")
	if err != nil {
		r.t.Fatalf("invite %s: %v", mobile, err)
	}
	return c
}

// input is a valid colleague form for a mobile (09…).
func input(mobile string, roleID int64) colleague.Input {
	return colleague.Input{Name: "همکار " + mobile, Mobile: mobile, NationalID: nationalID("00" + mobile[4:11]), RoleID: roleID}
}

// nationalID completes nine digits with the check digit the product accepts.
func nationalID(nine string) string {
	for d := range 10 {
		if id := nine + strconv.Itoa(d); validate.NationalCode(id) == nil {
			return id
		}
	}
	panic("no national code starts with " + nine)
}

// as is the identity of a colleague acting through their role.
func (r *rig) as(c colleague.Colleague) acl.Identity {
	return acl.Identity{UserID: c.ID, AccountID: r.owner.AccountID, Username: c.Username, Permissions: c.Perms}
}

// show reads a colleague as the owner.
func (r *rig) show(id int64) colleague.Colleague {
	r.t.Helper()
	c, err := r.svc.Show(r.ctx, r.owner, id)
	r.ok("show", err)
	return c
}

// ok fails the test on err, saying what failed.
func (r *rig) ok(what string, err error) {
	r.t.Helper()
	if err != nil {
		r.t.Fatalf("%s: %v", what, err)
	}
}

// lastCode is the code of the newest invitation queued to a mobile (09…).
func (r *rig) lastCode(mobile string) string {
	r.t.Helper()
	intl, _ := validate.NormalizeMobile(mobile)
	return testenv.LastCode(r.t, shared.Redis, intl)
}

// refusedAs fails unless err is an apperr of kind with code (any code when empty).
func refusedAs(t *testing.T, what string, err error, kind apperr.Kind, code string) {
	t.Helper()
	var e *apperr.Error
	if !errors.As(err, &e) || e.Kind != kind || (code != "" && e.Code != code) || e.Message == "" {
		t.Errorf("%s: %v, want kind %v code %q", what, err, kind, code)
	}
}

// The package's one migrated database and Redis database (TestMain); each test
// has accounts, mobiles and client addresses of its own.
var shared testenv.Shared

func TestMain(m *testing.M) { testenv.Main(m, true, &shared) }
