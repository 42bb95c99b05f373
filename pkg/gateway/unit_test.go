package gateway

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/chapar/chapar/pkg/smpp"
)

func envOf(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

func TestLoadConfigDefaults(t *testing.T) {
	cfg, err := LoadConfig("default", envOf(nil))
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.Binds) != 4 || cfg.Binds[0].Addr() != "127.0.0.1:2775" || cfg.Binds[1].Operator != "irancell" ||
		cfg.Binds[2].Addr() != "127.0.0.1:2777" || cfg.Binds[3].Operator != OperatorSandbox || cfg.SandboxPeer != "sandbox" {
		t.Fatalf("binds %+v", cfg.Binds)
	}
	b := cfg.Binds[0]
	if b.SystemID != "chapar" || b.Password != "secret" || b.TPS != 200 || b.Window != 100 ||
		b.EnquireLink != DefaultEnquireLink || b.ReconnectMax != DefaultReconnectMax {
		t.Fatalf("bind defaults %+v", b)
	}
	if cfg.OtherRoute != "mci" || cfg.HTTPAddr != "127.0.0.1:2790" || cfg.Concurrency != 8 || cfg.InstanceID == "" || cfg.Procs != 1 {
		t.Fatalf("config %+v", cfg)
	}
	if q := cfg.QueueOperators(); !reflect.DeepEqual(q, []string{"mci", "irancell", "rightel", "sandbox", "other"}) {
		t.Fatalf("queue operators %v", q)
	}
	// The sandbox route never carries "other" numbers.
	if _, err := LoadConfig("default", envOf(map[string]string{"GATEWAY_OTHER_ROUTE": "sandbox"})); err == nil {
		t.Fatal("other numbers routed to the sandbox")
	}

	bench, err := LoadConfig("bench", envOf(nil))
	if err != nil || bench.Binds[0].TPS != 0 {
		t.Fatalf("bench profile TPS %v, %v", bench.Binds[0].TPS, err)
	}
	explicit, err := LoadConfig("bench", envOf(map[string]string{"GATEWAY_TPS": "50", "GATEWAY_PROCS": "4"}))
	if err != nil || explicit.Binds[0].TPS != 50 || explicit.Procs != 4 {
		t.Fatalf("explicit TPS and procs under bench %v, %d, %v", explicit.Binds[0].TPS, explicit.Procs, err)
	}
}

func TestLoadConfigEnv(t *testing.T) {
	pw := filepath.Join(t.TempDir(), "pw")
	if err := os.WriteFile(pw, []byte("fromfile\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := LoadConfig("default", envOf(map[string]string{
		"GATEWAY_BINDS":              "mci=10.0.0.1:2775, rightel=10.0.0.3:2777",
		"GATEWAY_BINDS_PER_OPERATOR": "2",
		"SMPP_SYSTEM_ID":             "acme",
		"SMPP_PASSWORD":              "ignored",
		"SMPP_PASSWORD_FILE":         pw,
		"GATEWAY_TPS":                "0",
		"GATEWAY_WINDOW":             "20",
		"GATEWAY_OTHER_ROUTE":        "irancell",
		"GATEWAY_CONCURRENCY":        "3",
		"GATEWAY_ENQUIRE_LINK":       "7s",
	}))
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.Binds) != 4 || cfg.Binds[1].Operator != "mci" || cfg.Binds[3].Addr() != "10.0.0.3:2777" {
		t.Fatalf("binds %+v", cfg.Binds)
	}
	b := cfg.Binds[2]
	if b.SystemID != "acme" || b.Password != "fromfile" || b.TPS != 0 || b.Window != 20 || b.EnquireLink != 7*time.Second {
		t.Fatalf("bind %+v", b)
	}
	// irancell has no bind here, so "other" is not consumed.
	if q := cfg.QueueOperators(); !reflect.DeepEqual(q, []string{"mci", "rightel"}) || cfg.Concurrency != 3 {
		t.Fatalf("queue operators %v", q)
	}

	for name, env := range map[string]map[string]string{
		"bad entry":     {"GATEWAY_BINDS": "mci:2775"},
		"bad operator":  {"GATEWAY_BINDS": "hamrah=127.0.0.1:1"},
		"bad route":     {"GATEWAY_OTHER_ROUTE": "other"},
		"bad tps":       {"GATEWAY_TPS": "-1"},
		"bad duration":  {"GATEWAY_RECONNECT_MAX": "soon"},
		"no binds":      {"GATEWAY_BINDS": " , "},
		"zero per op":   {"GATEWAY_BINDS_PER_OPERATOR": "0"},
		"missing pw fl": {"SMPP_PASSWORD_FILE": "/nonexistent/pw"},
	} {
		if _, err := LoadConfig("default", envOf(env)); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func TestLoadConfigFile(t *testing.T) {
	dir := t.TempDir()
	pw := filepath.Join(dir, "pw")
	if err := os.WriteFile(pw, []byte("s3cret"), 0o600); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "binds.json")
	if err := os.WriteFile(file, []byte(`[
		{"operator": "mci", "host": "smsc.mci.example", "port": 2775, "system_id": "chapar-mci",
		 "password_file": "`+pw+`", "tps": 500, "window": 50, "enquire_link": "30s", "reconnect_max": 60, "count": 2},
		{"operator": "irancell", "port": 2776, "tps": 0, "retry_statuses": ["0x08", "20"], "retry_max": 2, "retry_backoff": "1s"}
	]`), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := LoadConfig("default", envOf(map[string]string{"GATEWAY_BINDS_FILE": file, "GATEWAY_BINDS": "rightel=1.2.3.4:1"}))
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.Binds) != 3 {
		t.Fatalf("binds %+v", cfg.Binds)
	}
	m := cfg.Binds[0]
	if m.Addr() != "smsc.mci.example:2775" || m.SystemID != "chapar-mci" || m.Password != "s3cret" || m.TPS != 500 ||
		m.Window != 50 || m.EnquireLink != 30*time.Second || m.ReconnectMax != time.Minute || !reflect.DeepEqual(cfg.Binds[1], m) ||
		!slices.Equal(m.RetryStatuses, DefaultRetryStatuses) || m.RetryMax != DefaultRetryMax {
		t.Fatalf("mci bind %+v", m)
	}
	ic := cfg.Binds[2]
	if ic.Host != "127.0.0.1" || ic.TPS != 0 || ic.SystemID != "chapar" || ic.Password != "secret" || ic.Window != 100 ||
		!slices.Equal(ic.RetryStatuses, []smpp.Status{0x08, 0x14}) || ic.RetryMax != 2 || ic.RetryBackoff != time.Second {
		t.Fatalf("irancell bind %+v", ic)
	}
	if err := os.WriteFile(file, []byte(`[{"operator":"mci","port":1,"enquire_link":"x"}]`), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadConfig("default", envOf(map[string]string{"GATEWAY_BINDS_FILE": file})); err == nil {
		t.Fatal("bad duration accepted")
	}
}

// strValues turns XADD values into what go-redis returns from XRANGE.
func strValues(v []any) map[string]any {
	m := map[string]any{}
	for i := 0; i+1 < len(v); i += 2 {
		m[v[i].(string)] = v[i+1]
	}
	return m
}

func TestInboundRoundTrip(t *testing.T) {
	at := time.Date(2025, 3, 1, 10, 20, 30, 123456789, time.UTC)
	for _, in := range []Inbound{
		{Kind: KindReceipt, Operator: "mci", MsgID: "5f3a9c01", MsgIDAlt: []string{"1597676545"}, Stat: StatDelivered,
			State: "DELIVRD", Err: "000", Mobile: "989121234567", Line: "30001234", ReceivedAt: at},
		{Kind: KindReceipt, Operator: "irancell", MsgID: "abc-def", Stat: StatNone, Mobile: "98935", ReceivedAt: at},
		{Kind: KindMO, Operator: "rightel", Mobile: "989211234567", Line: "3000", Text: "لغو۱۱",
			UDHSeq: 1, UDHTotal: 1, ReceivedAt: at},
		{Kind: KindMO, Operator: "mci", Mobile: "989121234567", Line: "3000", Text: "بخش دوم",
			UDHRef: 300, UDHSeq: 2, UDHTotal: 3, ReceivedAt: at},
	} {
		got, err := ParseInbound(strValues(in.Values()))
		if err != nil {
			t.Fatalf("%+v: %v", in, err)
		}
		if !reflect.DeepEqual(got, in) {
			t.Fatalf("round trip\n got %+v\nwant %+v", got, in)
		}
	}
	good := strValues(Inbound{Kind: KindReceipt, Operator: "mci", MsgID: "1", Stat: 2, ReceivedAt: at}.Values())
	for name, mutate := range map[string]func(map[string]any){
		"kind":        func(m map[string]any) { m[FieldKind] = "dlr" },
		"operator":    func(m map[string]any) { delete(m, FieldOperator) },
		"msg_id":      func(m map[string]any) { delete(m, FieldMsgID) },
		"stat":        func(m map[string]any) { m[FieldStat] = "9" },
		"stat text":   func(m map[string]any) { m[FieldStat] = "DELIVRD" },
		"received_at": func(m map[string]any) { m[FieldReceivedAt] = "yesterday" },
	} {
		m := map[string]any{}
		for k, v := range good {
			m[k] = v
		}
		mutate(m)
		if _, err := ParseInbound(m); !errors.Is(err, ErrInbound) {
			t.Errorf("%s: err %v", name, err)
		}
	}
}

func TestInboundFromDeliver(t *testing.T) {
	now := time.Now()
	receipt := smpp.Deliver{
		ReceivedAt: now,
		Source:     smpp.Address{Addr: "989121234567"},
		Dest:       smpp.Address{Addr: "30001234"},
		ESMClass:   smpp.ESMClassSMSCReceipt,
		IsReceipt:  true,
		ShortMessage: []byte("id:00A1B2 sub:001 dlvrd:001 submit date:2503011020 " +
			"done date:2503011021 stat:UNDELIV err:001 text:hello"),
	}
	receipt.Text = string(receipt.ShortMessage)
	in, ok := inboundFromDeliver("mci", receipt)
	if !ok || in.Kind != KindReceipt || in.MsgID != "a1b2" || in.Stat != StatFailed || in.State != "UNDELIV" ||
		in.Err != "001" || in.Mobile != "989121234567" || in.Line != "30001234" || !in.ReceivedAt.Equal(now) {
		t.Fatalf("receipt %+v %v", in, ok)
	}
	if !reflect.DeepEqual(in.MsgIDKeys(), smpp.MessageIDKeys("00A1B2")) {
		t.Fatalf("keys %v, want %v", in.MsgIDKeys(), smpp.MessageIDKeys("00A1B2"))
	}
	for state, want := range map[smpp.MessageState]int{
		smpp.MessageDelivered: StatDelivered, smpp.MessageEnroute: StatPending, smpp.MessageAccepted: StatPending,
		smpp.MessageExpired: StatFailed, smpp.MessageRejected: StatFailed, smpp.MessageDeleted: StatFailed,
		smpp.MessageUndeliverable: StatFailed, smpp.MessageUnknown: StatFailed,
	} {
		if got := StatOf(smpp.Receipt{State: state, HasState: true}); got != want {
			t.Errorf("%s: stat %d, want %d", state, got, want)
		}
	}
	if StatOf(smpp.Receipt{}) != StatNone {
		t.Error("receipt without state")
	}
	if _, ok := inboundFromDeliver("mci", smpp.Deliver{IsReceipt: true, ShortMessage: []byte("stat:DELIVRD")}); ok {
		t.Fatal("receipt without id accepted")
	}
	mo := smpp.Deliver{Source: smpp.Address{Addr: "989121234567"}, Dest: smpp.Address{Addr: "3000"}, Text: "سلام",
		UDH: &smpp.UDH{Concat: true, Ref: 7, Total: 2, Part: 2}}
	in, ok = inboundFromDeliver("irancell", mo)
	if !ok || in.Kind != KindMO || in.Text != "سلام" || in.UDHRef != 7 || in.UDHSeq != 2 || in.UDHTotal != 2 || in.ReceivedAt.IsZero() {
		t.Fatalf("MO %+v", in)
	}
}

// An outcome transaction gathers for recordTarget recipients at the rate they
// came, within recordEvery and recordMaxGap.
func TestOutcomeGap(t *testing.T) {
	for _, c := range []struct {
		last time.Duration
		n    int
		want time.Duration
	}{
		{recordEvery, 0, recordEvery},                                // nothing recorded: as before
		{recordEvery, 4 * recordTarget, recordEvery},                 // a fast bind: never below recordEvery
		{recordEvery, recordTarget / 2, 2 * recordEvery},             // half the target: twice as long
		{40 * time.Millisecond, recordTarget, 40 * time.Millisecond}, // on target: kept
		{recordEvery, 1, recordMaxGap},                               // a slow bind: never above recordMaxGap
	} {
		if got := outcomeGap(c.last, c.n); got != c.want {
			t.Errorf("after %s with %d recipients: %s, want %s", c.last, c.n, got, c.want)
		}
	}
}
