package smscsim

import (
	"testing"
	"time"

	"github.com/fiorix/go-smpp/smpp"
	"github.com/fiorix/go-smpp/smpp/pdu/pdufield"
	"github.com/fiorix/go-smpp/smpp/pdu/pdutext"
)

// TestInteropGoSMPPTransceiver binds with go-smpp's own high-level client (a
// third-party ESME) and submits one message.
func TestInteropGoSMPPTransceiver(t *testing.T) {
	srv := startSim(t, Config{})
	tx := &smpp.Transceiver{
		Addr:        srv.Addr("mci"),
		User:        srv.SystemID(),
		Passwd:      srv.Password(),
		RespTimeout: 2 * time.Second,
	}
	defer tx.Close()
	status := tx.Bind()
	select {
	case st := <-status:
		if st.Status() != smpp.Connected {
			t.Fatalf("bind: %v (%v)", st.Status(), st.Error())
		}
	case <-time.After(5 * time.Second):
		t.Fatal("bind timed out")
	}
	sm, err := tx.Submit(&smpp.ShortMessage{
		Src:      "30001234",
		Dst:      "989121234567",
		Text:     pdutext.Raw("interop works"),
		Register: pdufield.NoDeliveryReceipt,
	})
	if err != nil {
		t.Fatalf("submit: %v", err)
	}
	id := sm.RespID()
	if id == "" {
		t.Fatal("empty message id")
	}
	m, ok := srv.Latest("989121234567")
	if !ok || m.Text != "interop works" || m.MessageIDs[0] != id || m.From != "30001234" {
		t.Fatalf("stored %+v (id %q)", m, id)
	}
	if st := srv.Stats().Operators["mci"]; st.Binds != 1 || st.Accepted != 1 {
		t.Fatalf("counters %+v", st)
	}
}
