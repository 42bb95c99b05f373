package apikey

import "testing"

// TestAllowList: single addresses and CIDR ranges, IPv4 and IPv6 (and IPv4-mapped
// IPv6), match only the addresses they cover; bad entries are refused.
func TestAllowList(t *testing.T) {
	list, bad, ok := ParseAllowList([]string{"127.0.0.1", "10.1.0.0/16", "2001:db8::/32", "::1", "۱۹۲.۱۶۸.۱.۱"})
	if !ok {
		t.Fatalf("parse refused %q", bad)
	}
	cases := map[string]bool{
		"127.0.0.1": true, "127.0.0.2": false, "10.1.200.3": true, "10.2.0.1": false,
		"2001:db8:1::5": true, "2001:db9::1": false, "::1": true, "::ffff:10.1.0.9": true,
		"192.168.1.1": true, "not-an-ip": false, "": false,
	}
	for ip, want := range cases {
		if got := Allowed(list, ip); got != want {
			t.Errorf("Allowed(%q) = %v, want %v", ip, got, want)
		}
	}
	if !Allowed(nil, "8.8.8.8") {
		t.Error("an empty list must allow every address")
	}
	for _, e := range []string{"300.1.1.1", "10.0.0.0/33", "example.com", "1.2.3.4/x"} {
		if _, bad, ok := ParseAllowList([]string{e}); ok || bad != e {
			t.Errorf("%q accepted", e)
		}
	}
	if got := prefixStrings(list); got[0] != "127.0.0.1" || got[1] != "10.1.0.0/16" {
		t.Errorf("canonical forms: %v", got)
	}
}
