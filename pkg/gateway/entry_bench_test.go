package gateway

import (
	"testing"
	"time"

	"github.com/chapar/chapar/pkg/smpp"
)

// BenchmarkReceiptEntry is a carrier receipt made into its packed inbound
// stream entry, as the gateway does for every receipt before storing it.
func BenchmarkReceiptEntry(b *testing.B) {
	d := smpp.Deliver{ESMClass: smpp.ESMClassSMSCReceipt, IsReceipt: true, ReceivedAt: time.Now(),
		Source: smpp.Address{Addr: "989121234567"}, Dest: smpp.Address{Addr: "30001234"},
		ShortMessage: []byte("id:00A1B2C3D4 sub:001 dlvrd:001 submit date:2612071020 done date:2612071021 stat:DELIVRD err:000 text:x")}
	b.ReportAllocs()
	for b.Loop() {
		in, ok := inboundFromDeliver("mci", d)
		if !ok {
			b.Fatal("no entry")
		}
		_ = in.Packed()
	}
}
