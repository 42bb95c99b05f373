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

// Internal IPv4 addresses spelt as IPv6 (IPv4-compatible, SIIT, 6to4, NAT64,
// Teredo, mapped, with a zone) are blocked like the addresses themselves, while
// the same forms of a public address pass where no relay decides the target.
func TestBlockedEmbeddedIPv4(t *testing.T) {
	for s, want := range map[string]bool{
		"::127.0.0.1": true, "::a9fe:a9fe": true, "::10.0.0.1": true, // IPv4-compatible ::/96
		"::ffff:0:127.0.0.1": true, "::ffff:0:a9fe:a9fe": true, "::ffff:0:c0a8:101": true, // SIIT
		"2002:7f00:1::": true, "2002:a9fe:a9fe::1": true, "2002:c0a8:0101:5::9": true, // 6to4
		"64:ff9b::7f00:1": true, "64:ff9b::808:808": true, "64:ff9b:1::a00:1": true, // NAT64
		"2001:0:4136:e378:8000:63bf:80ff:fffe": true, // Teredo
		"::ffff:127.0.0.1":                     true, "::ffff:a9fe:a9fe": true, "fe80::1%eth0": true,
		"192.0.2.1": true, "198.51.100.7": true, "203.0.113.9": true, "192.88.99.1": true, "100::1": true,
		"::8.8.8.8": false, "2002:808:808::1": false, "::ffff:0:808:808": false, "::ffff:8.8.8.8": false,
	} {
		if got := Blocked(netip.MustParseAddr(s)); got != want {
			t.Errorf("Blocked(%s) = %v", s, got)
		}
	}
}

// A host whose last label is a number is read by some resolvers as an IPv4
// literal in decimal, octal or hex, so it is refused at save time; the dial-time
// check refuses the internal forms in any case.
func TestCheckURLNumericHosts(t *testing.T) {
	ctx := context.Background()
	strict := Guard{}
	for _, u := range []string{"http://2130706433/", "http://0x7f000001/", "http://0177.0.0.1/", "http://0x7f.1/",
		"http://127.1/", "http://127.0.0.1./", "http://[::127.0.0.1]/", "http://[::ffff:0:a9fe:a9fe]/",
		"http://[2002:a9fe:a9fe::]/", "http://[64:ff9b::a9fe:a9fe]/", "https://3232235777:8443/x"} {
		if strict.CheckURL(ctx, u) == nil {
			t.Errorf("%s accepted", u)
		}
	}
	for _, addr := range []string{"[::a9fe:a9fe]:80", "[2002:7f00:1::]:80", "[::ffff:0:7f00:1]:443"} {
		if strict.Control("tcp", addr, nil) == nil {
			t.Errorf("dial to %s allowed", addr)
		}
	}
	if err := strict.CheckURL(ctx, "https://93.184.216.34/h"); err != nil {
		t.Errorf("a public dotted quad refused: %v", err)
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
