package httpapi_test

import (
	"context"
	"testing"

	"github.com/chapar/chapar/internal/testing/apitest"
	"github.com/chapar/chapar/pkg/inbound"
)

// Staff list the quarantined inbound entries, newest first, their raw bytes in
// hex; customers get 404.
func TestInboundQuarantineListed(t *testing.T) {
	e := apitest.Start(t, nil)
	chief := addStaff(t, e, "qchief")
	e.Register("qflorist", pw, "09121239021")
	ctok := e.Login("qflorist", pw)
	if _, err := e.DB.Pool.Exec(context.Background(), `INSERT INTO inbound_quarantine (stream_id, raw, reason, created_at)
		VALUES ('1-0', '\x6d73675f69643dff0a', 'field msg_id is not valid UTF-8', now() - interval '1 minute'),
		       ('2-0', '\x6b696e643d780a', 'malformed', now())`); err != nil {
		t.Fatal(err)
	}
	var rows []inbound.QuarantineEntry
	r := e.Must(200, "GET", "/v1/api/admin/inbound-quarantine?limit=1", nil, chief)
	r.Decode(t, &rows)
	if len(rows) != 1 || rows[0].StreamID != "2-0" || rows[0].RawHex != "6b696e643d780a" || r.Meta.Total == nil || *r.Meta.Total != 2 {
		t.Fatalf("page 1: %+v (%+v)", rows, r.Meta)
	}
	e.Must(200, "GET", "/v1/api/admin/inbound-quarantine?page=2&limit=1", nil, chief).Decode(t, &rows)
	if len(rows) != 1 || rows[0].RawHex != "6d73675f69643dff0a" || rows[0].Reason != "field msg_id is not valid UTF-8" {
		t.Fatalf("page 2: %+v", rows)
	}
	e.Must(404, "GET", "/v1/api/admin/inbound-quarantine", nil, ctok)
}
