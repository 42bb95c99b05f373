package inbound

import (
	"strings"
	"testing"
	"time"

	"github.com/chapar/chapar/pkg/gateway"
)

// A quarantined entry's raw bytes read the same, field by field, whether the
// gateway wrote it packed or one field a value; a packed value that cannot be
// unpacked is kept as it is.
func TestRawEntryOfPackedEntry(t *testing.T) {
	in := gateway.Inbound{Kind: gateway.KindMO, Operator: "mci", Mobile: "989121234567\xff", Line: "30001234",
		Text: "quarantine me", ReceivedAt: time.Date(2026, 12, 7, 10, 0, 0, 0, time.UTC)}
	fields, packed := valuesOf(in), map[string]any{gateway.FieldPacked: in.Packed()[1]}
	if a, b := string(rawEntry(fields)), string(rawEntry(packed)); a != b {
		t.Fatalf("packed entry's raw bytes\n%q\nwant the fields'\n%q", b, a)
	}
	if want := "mobile=989121234567\xff\n"; !strings.Contains(string(rawEntry(packed)), want) {
		t.Fatalf("raw bytes %q without %q", rawEntry(packed), want)
	}
	bad := map[string]any{gateway.FieldPacked: "1" + "99:mo"}
	if got := string(rawEntry(bad)); got != "p=199:mo\n" {
		t.Fatalf("a packed value that cannot be unpacked: %q", got)
	}
}
