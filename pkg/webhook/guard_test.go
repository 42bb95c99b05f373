package webhook

import (
	"context"
	"net/netip"
	"testing"
	"time"
)

func TestBlocked(t *testing.T) {
	for s, want := range map[string]bool{
		"127.0.0.1": true, "10.9.8.7": true, "172.16.0.1": true, "192.168.1.1": true, "169.254.169.254": true,
		"100.64.0.1": true, "0.0.0.0": true, "224.0.0.1": true, "::1": true, "::": true, "fc00::1": true, "fd00::2": true,
		"fe80::1": true, "ff02::1": true, "::ffff:10.0.0.1": true,
		"93.184.216.34": false, "2606:2800:220:1:248:1893:25c8:1946": false, "8.8.8.8": false,
	} {
		if got := Blocked(netip.MustParseAddr(s)); got != want {
			t.Errorf("Blocked(%s) = %v", s, got)
		}
	}
}

func TestCheckURL(t *testing.T) {
	ctx := context.Background()
	strict, dev := Guard{}, Guard{AllowPrivate: true}
	for _, u := range []string{"http://localhost/h", "http://127.0.0.1/", "http://[::1]:8080/", "gopher://x/", "http:///nohost"} {
		if strict.CheckURL(ctx, u) == nil {
			t.Errorf("%s accepted", u)
		}
	}
	if err := dev.CheckURL(ctx, "http://127.0.0.1:9/h"); err != nil {
		t.Errorf("development setting refused loopback: %v", err)
	}
	if err := strict.Control("tcp", "127.0.0.1:80", nil); err == nil {
		t.Error("dial to loopback allowed")
	}
	if err := strict.Control("tcp", "[2606:2800:220:1::1]:443", nil); err != nil {
		t.Errorf("dial to a public address refused: %v", err)
	}
}

func TestSignVerify(t *testing.T) {
	now := time.Unix(1_760_000_000, 0)
	body := []byte(`{"events":[]}`)
	sig := Sign("whsec_x", now, body)
	if !Verify("whsec_x", "1760000000", sig, body, now, time.Minute) {
		t.Fatal("own signature refused")
	}
	if Verify("whsec_y", "1760000000", sig, body, now, time.Minute) || Verify("whsec_x", "1760000000", sig, []byte("{}"), now, time.Minute) ||
		Verify("whsec_x", "1760000000", sig, body, now.Add(10*time.Minute), time.Minute) {
		t.Fatal("a wrong secret, body or stale timestamp verified")
	}
}

func TestBackoff(t *testing.T) {
	d := &Deliverer{set: Settings{RetryBase: time.Second, RetryMax: 8 * time.Second}}
	for attempt, base := range map[int]time.Duration{1: time.Second, 2: 2 * time.Second, 4: 8 * time.Second, 9: 8 * time.Second} {
		if w := d.backoff(attempt); w < base || w > base+base/5 {
			t.Errorf("backoff(%d) = %s", attempt, w)
		}
	}
}
