package enginetest_test

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chapar/chapar/internal/testing/enginetest"
	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/operator"
	"github.com/chapar/chapar/pkg/report"
	"github.com/chapar/chapar/pkg/send"
	"github.com/chapar/chapar/pkg/smpp"
)

// sandboxKey creates an API key (sandbox or live) for the account's owner, with
// the code texted to mobile (international form).
func sandboxKey(t *testing.T, e *enginetest.Engine, token, mobile string, sandbox bool) string {
	t.Helper()
	var otp struct {
		OTPToken string `json:"otp_token"`
	}
	e.Must(200, "POST", "/v1/api/acl/api_key/otp", nil, token).Decode(t, &otp)
	var k struct {
		Secret string `json:"secret"`
	}
	form := map[string]any{"title": "کلید " + strconv.FormatBool(sandbox), "sandbox": sandbox, "otp_token": otp.OTPToken,
		"code": e.LastCode(mobile), "scopes": []acl.Permission{acl.SendCreate, acl.ReportView, acl.WalletView}}
	e.Must(201, "POST", "/v1/api/acl/api_key/create", form, token).Decode(t, &k)
	return k.Secret
}

// TestSandboxKeyThroughSimulator: a sandbox key's send travels the whole pipeline
// (expansion, the gateway, real receipts) to the simulator's sandbox port only,
// and no ledger row is written for it at any stage; a live key's send of the same
// account goes to the carriers' ports and is charged (the control).
func TestSandboxKeyThroughSimulator(t *testing.T) {
	e := enginetest.Start(t, enginetest.Options{})
	token, acct := e.Account("sandboxer", "09121110400", "30004400", "service", 1_000_000)
	sb := sandboxKey(t, e, token, "989121110400", true)
	live := sandboxKey(t, e, token, "989121110400", false)
	before := credit(t, e, token)

	numbers := []string{"09121110401", "09351110402", "09211110403"}
	long := "پیام آزمایشی کلید sandbox که از سه بخش بیشتر است؛ " + strings.Repeat("متن بلند ", 20)
	form := map[string]any{"text": long, "numbers": numbers, "local_id": "sbx-1"}
	r := e.Must(201, "POST", "/v1/api/send", form, sb)
	var a send.Accepted
	r.Decode(t, &a)
	if !a.Sandbox || a.Price != 0 || r.Header.Get("X-Chapar-Sandbox") != "1" {
		t.Fatalf("sandbox accept: %s", r.Raw)
	}
	e.Wait("sandbox send delivered", 30*time.Second, func() bool {
		st := sendStats(t, e, a.ID)
		return st.Status == send.StatusDone && st.Delivered == len(numbers)
	})
	for _, n := range numbers {
		intl := "98" + n[1:]
		msgs := e.Sim.Messages(intl)
		if len(msgs) != 1 || msgs[0].Operator != operator.Sandbox || msgs[0].Parts < 2 {
			t.Fatalf("%s at the simulator: %+v", intl, msgs)
		}
	}
	var one struct {
		Recipient report.Recipient `json:"recipient"`
	}
	e.Must(200, "GET", "/v1/api/send/status?local_id=sbx-1&mobile=09351110402", nil, sb).Decode(t, &one)
	if one.Recipient.Status != report.StatusDelivered {
		t.Fatalf("one number's status: %+v", one.Recipient)
	}
	var ledgerRows, nonSandbox int
	ctx := context.Background()
	_ = e.DB.Pool.QueryRow(ctx, `SELECT count(*) FROM ledger WHERE send_id = $1`, a.ID).Scan(&ledgerRows)
	_ = e.DB.Pool.QueryRow(ctx, `SELECT count(*) FROM recipients WHERE send_id = $1 AND (operator <> 'sandbox' OR cost <> 0)`,
		a.ID).Scan(&nonSandbox)
	if ledgerRows != 0 || nonSandbox != 0 || credit(t, e, token) != before {
		t.Fatalf("sandbox money: %d ledger rows, %d paid or carrier recipients, credit %d -> %d",
			ledgerRows, nonSandbox, before, credit(t, e, token))
	}

	r = e.Must(201, "POST", "/v1/api/send", map[string]any{"text": "سلام", "numbers": []string{"09121110404"}}, live)
	r.Decode(t, &a)
	e.Wait("live send delivered", 30*time.Second, func() bool { return sendStats(t, e, a.ID).Delivered == 1 })
	if msgs := e.Sim.Messages("989121110404"); len(msgs) != 1 || msgs[0].Operator != operator.MCI {
		t.Fatalf("live send at the simulator: %+v", msgs)
	}
	if taken := ledgerBalanced(t, e, acct, a.ID); taken <= 0 {
		t.Fatalf("live send took %d", taken)
	}
}

// TestSandboxBindRefusesACarrier: the sandbox route binds only to an SMSC that
// names the sandbox peer in its bind response; the simulator's carrier ports
// name their operator, so a sandbox bind pointed at one is refused.
func TestSandboxBindRefusesACarrier(t *testing.T) {
	e := enginetest.Start(t, enginetest.Options{})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cfg := smpp.Config{SystemID: e.Sim.SystemID(), Password: e.Sim.Password(), PeerSystemID: "sandbox",
		BindType: smpp.BindTransmitter}
	cfg.Addr = e.Sim.Addr("mci")
	if s, err := smpp.Dial(ctx, cfg); !errors.Is(err, smpp.ErrWrongPeer) {
		if s != nil {
			_ = s.Close(ctx)
		}
		t.Fatalf("sandbox bind to a carrier port: %v", err)
	}
	cfg.Addr = e.Sim.Addr(operator.Sandbox)
	s, err := smpp.Dial(ctx, cfg)
	if err != nil {
		t.Fatalf("sandbox bind to the sandbox port: %v", err)
	}
	_ = s.Close(ctx)
}
