package gateway

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chapar/chapar/cmd/smsc-sim/smscsim"
	"github.com/chapar/chapar/jobs"
	"github.com/chapar/chapar/pkg/smpp"
)

// A bind to an SMSC whose default alphabet is ASCII sends GSM-7 texts as IA5
// (data_coding 1), so '@' and '$' arrive as themselves.
func TestBindAlphabetASCII(t *testing.T) {
	e := newEnv(t, smscsim.Config{})
	e.start(e.config(func(c *Config) { c.Binds[0].Alphabet = "ascii" }), nil)
	const text = "Pay 10$ @shop {now}"
	sendID := e.createSend(text, false, "queued")
	e.addRecipients(sendID, 1, 3, 1, "98912", "mci", 1)
	e.enqueue(jobs.SendBatch{SendID: sendID, Batch: 1, Operator: "mci"}, "")
	waitFor(t, 20*time.Second, "sent", func() bool {
		return e.count(`SELECT count(*) FROM recipients WHERE send_id = $1 AND status = 0`, sendID) == 3
	})
	for i := 1; i <= 3; i++ {
		got := e.sim.Messages(fmt.Sprintf("98912%07d", i))
		if len(got) != 1 || got[0].Text != text || got[0].DataCoding != 1 || got[0].Encoding != "IA5" {
			t.Fatalf("handset %d received %+v", i, got)
		}
	}
}

// TON/NPI overrides apply to the addresses a bind sends.
func TestBindAddresses(t *testing.T) {
	nat, unk := smpp.TONNational, uint8(0)
	b := BindConfig{DestTON: &nat, SourceNPI: &unk}
	src, dst := b.addresses(smpp.SenderLine("30001234"), smpp.Mobile("989121234567"))
	if dst.TON != nat || dst.NPI != smpp.NPIISDN || src.NPI != 0 || src.Addr != "30001234" || dst.Addr != "989121234567" {
		t.Fatalf("src %+v dst %+v", src, dst)
	}
	if s, d := (BindConfig{}).addresses(smpp.SenderLine("30001234"), smpp.Mobile("989121234567")); s != smpp.SenderLine("30001234") || d != smpp.Mobile("989121234567") {
		t.Fatalf("defaults changed: %+v %+v", s, d)
	}
}

func TestBindCredentialLimits(t *testing.T) {
	e := newBareEnv(t)
	for _, c := range []struct {
		tweak func(*BindConfig)
		want  string
	}{
		{func(b *BindConfig) { b.SystemID = strings.Repeat("s", 16) }, "longer than SMPP's 15"},
		{func(b *BindConfig) { b.Password = "123456789" }, "longer than SMPP's 8"},
		{func(b *BindConfig) { b.Alphabet = "ebcdic" }, "alphabet"},
	} {
		cfg := e.configFor("127.0.0.1:1", func(cfg *Config) { c.tweak(&cfg.Binds[0]) })
		if err := cfg.Validate(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("validate: %v, want %q", err, c.want)
		}
	}
}
