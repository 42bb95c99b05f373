package httpapi_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/hibiken/asynq"

	"github.com/chapar/chapar/internal/testing/apitest"
	"github.com/chapar/chapar/jobs"
	"github.com/chapar/chapar/pkg/gateway"
	"github.com/chapar/chapar/pkg/operations"
	"github.com/chapar/chapar/pkg/staff"
)

// The operations page is for the staff whose role grants it: a customer gets
// 404, a staff member without it 403 until another grants it (audited). It
// shows each bind as the gateway holding it sees it, the gateways' summed
// rates and the task queues.
func TestStaffOperationsPage(t *testing.T) {
	e := apitest.Start(t, nil)
	lead := e.Staff("opslead", "09120009911")
	ops := e.Staff("opsnew", "09120009912")
	e.Register("opsshop", pw, "09121239011")
	ctok := e.Login("opsshop", pw)
	e.Must(http.StatusNotFound, "GET", "/v1/api/admin/operations", nil, ctok)
	e.Must(http.StatusForbidden, "GET", "/v1/api/admin/operations", nil, ops)
	var me struct{ Operations bool }
	e.Must(http.StatusOK, "GET", "/v1/api/admin/me", nil, ops).Decode(t, &me)
	if me.Operations {
		t.Fatal("a new staff user may read the operations page")
	}

	var users []staff.User
	e.Must(http.StatusOK, "GET", "/v1/api/admin/staff", nil, lead).Decode(t, &users)
	var opsID int64
	for _, u := range users {
		if u.Username == "opsnew" {
			opsID = u.ID
		}
	}
	var u staff.User
	e.Must(http.StatusOK, "POST", fmt.Sprintf("/v1/api/admin/staff/%d/operations", opsID), map[string]bool{"operations": true}, lead).Decode(t, &u)
	if !u.Operations {
		t.Fatalf("granted, the user shows %+v", u)
	}
	var audited int
	if err := e.DB.Pool.QueryRow(context.Background(), `SELECT count(*) FROM audit_log
		WHERE action = 'staff.user_operations_granted' AND target = $1`, fmt.Sprint(opsID)).Scan(&audited); err != nil || audited != 1 {
		t.Fatalf("audited %d (%v)", audited, err)
	}
	putHeartbeats(t, e)
	if _, err := e.Queue.Enqueue(asynq.NewTask("test:ops", nil), asynq.Queue("bulk")); err != nil {
		t.Fatal(err)
	}
	ov := waitForOperations(t, e, ops)
	if ov.Gateways != 2 || ov.Throughput.Submits != 300 || ov.Throughput.Receipts != 120 {
		t.Fatalf("gateways and throughput: %+v", ov)
	}
	want := []operations.Bind{{Name: "mci#1", Operator: "mci", State: "bound", Bound: true, Gateway: "gw-b"},
		{Name: "rightel#1", Operator: "rightel", State: "disconnected"}}
	if fmt.Sprint(ov.Binds) != fmt.Sprint(want) {
		t.Fatalf("binds %+v, want %+v", ov.Binds, want)
	}
	// The bulk queue holds the task; critical, the logins' codes (no worker runs).
	if len(ov.Queues) != 2 || ov.Queues[0].Name != "bulk" || ov.Queues[0].Pending != 1 || ov.Queues[1].Name != "critical" {
		t.Fatalf("queues %+v", ov.Queues)
	}

	e.Must(http.StatusOK, "POST", fmt.Sprintf("/v1/api/admin/staff/%d/operations", opsID), map[string]bool{"operations": false}, lead).Decode(t, &u)
	if u.Operations {
		t.Fatalf("revoked, the user shows %+v", u)
	}
	waitForStatus(t, e, ops, http.StatusForbidden)
}

// putHeartbeats stores two gateways' heartbeats: both list mci#1 and
// rightel#1; gw-b holds mci#1, no one holds rightel#1.
func putHeartbeats(t *testing.T, e *apitest.Env) {
	t.Helper()
	for _, hb := range []gateway.Heartbeat{
		{Instance: "gw-a", At: time.Now(), Rates: gateway.Rates{Submits: 100, Receipts: 20}, Binds: []gateway.HeartbeatBind{
			{Name: "mci#1", Operator: "mci", State: "disconnected"}, {Name: "rightel#1", Operator: "rightel", State: "disconnected"}}},
		{Instance: "gw-b", At: time.Now(), Rates: gateway.Rates{Submits: 200, Receipts: 100}, Binds: []gateway.HeartbeatBind{
			{Name: "mci#1", Operator: "mci", State: "bound", Bound: true, Held: true}, {Name: "rightel#1", Operator: "rightel", State: "disconnected"}}},
	} {
		raw, _ := json.Marshal(hb)
		if err := e.Redis.Client.Set(context.Background(), jobs.GatewayHeartbeat+hb.Instance, raw, time.Minute).Err(); err != nil {
			t.Fatal(err)
		}
	}
}

// waitForOperations reads the page once the grant reached the session (the
// session cache keeps an identity up to SESSION_CACHE_TTL).
func waitForOperations(t *testing.T, e *apitest.Env, token string) operations.Overview {
	t.Helper()
	waitForStatus(t, e, token, http.StatusOK)
	var ov operations.Overview
	e.Must(http.StatusOK, "GET", "/v1/api/admin/operations", nil, token).Decode(t, &ov)
	return ov
}

// waitForStatus waits until the operations page answers token with status.
func waitForStatus(t *testing.T, e *apitest.Env, token string, status int) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		r := e.Do("GET", "/v1/api/admin/operations", nil, token)
		if r.Status == status {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the operations page answers %d, want %d: %s", r.Status, status, r.Raw)
		}
		time.Sleep(100 * time.Millisecond)
	}
}
