package smscsim

import (
	"strings"
	"testing"

	"github.com/fiorix/go-smpp/smpp/pdu"
	"github.com/fiorix/go-smpp/smpp/pdu/pdufield"
)

// A number blocked at MCI (config, in its 0912… form) is accepted and answered
// REJECTD with err:014; the same number at another operator, and a number
// blocked later over HTTP with its own error code, follow the same rule; an
// unblocked number is delivered again.
func TestBlockedNumbersAnsweredAsCarriers(t *testing.T) {
	srv := startSim(t, Config{Blocked: map[string][]string{"mci": {"09120000011"}}})
	e := dialESME(t, srv.Addr("mci"), false)
	e.mustBind(srv)
	if code := httpJSON(t, srv, "POST", "/control/blocked", `{"operator":"mci","to":"989120000012"}`, nil); code != 200 {
		t.Fatalf("POST /control/blocked: %d", code)
	}
	if code := httpJSON(t, srv, "POST", "/control/blocked", `{"operator":"nope","to":"989120000012"}`, nil); code != 400 {
		t.Fatalf("unknown operator: %d", code)
	}
	receipt := func(to string) (Stat, string) {
		t.Helper()
		if _, st := e.submit(submitPDU("3000", to, 0, 0, 1, gsm7("offer"))); st != 0 {
			t.Fatalf("submit to %s: status %#x (a blocked number is accepted)", to, uint32(st))
		}
		d := e.req(waitLong)
		if d.Header().ID != pdu.DeliverSMID {
			t.Fatalf("got %s", d.Header().ID)
		}
		e.respond(pdu.NewDeliverSMResp(), d.Header().Seq, 0)
		mm := receiptRE.FindStringSubmatch(string(fieldBytes(d.Fields(), pdufield.ShortMessage)))
		if mm == nil {
			t.Fatalf("receipt text of %s", to)
		}
		return Stat(mm[5]), mm[6]
	}
	for _, to := range []string{"989120000011", "989120000012"} {
		if st, code := receipt(to); st != StatRejected || code != DefaultBlockedErr {
			t.Fatalf("%s: stat %s err %s, want REJECTD 014", to, st, code)
		}
	}
	if st, code := receipt("989120000013"); st != StatDelivered || code != "000" {
		t.Fatalf("an unblocked number: %s %s", st, code)
	}
	if got := strings.Join(srv.Blocked(), ","); got != "mci:09120000011,mci:989120000012" {
		t.Fatalf("blocked %q", got)
	}
	if err := srv.Block("mci", "989120000011", false); err != nil {
		t.Fatal(err)
	}
	if st, _ := receipt("989120000011"); st != StatDelivered {
		t.Fatalf("unblocked number answered %s", st)
	}
	if n := srv.Stats().Total.Blocked; n != 2 {
		t.Fatalf("blocked counter %d", n)
	}
}

func TestParseBlocked(t *testing.T) {
	m, err := ParseBlocked(" mci:989121234567, irancell:989351234567,mci:989121234568 ")
	if err != nil || len(m["mci"]) != 2 || m["irancell"][0] != "989351234567" {
		t.Fatalf("%v %v", m, err)
	}
	if _, err := ParseBlocked("989121234567"); err == nil {
		t.Fatal("a number without its operator was accepted")
	}
}
