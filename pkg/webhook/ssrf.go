package webhook

import (
	"context"
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"regexp"
	"strings"
	"syscall"
)

// blocked are the address ranges a webhook may not reach unless private
// addresses are allowed (WEBHOOK_ALLOW_PRIVATE, development only): private,
// loopback, link-local, carrier-grade NAT, multicast, unspecified, documentation
// and benchmarking ranges, the IPv6 equivalents (unique local, link-local,
// discard), and the translation and tunnel prefixes whose packets a relay or
// gateway forwards to an IPv4 address of its choosing: NAT64 (64:ff9b::/96 and
// the local-use 64:ff9b:1::/48) and Teredo (2001::/32). IPv4 embedded in the
// other IPv6 forms is checked on its own (embedded).
var blocked = func() []netip.Prefix {
	var out []netip.Prefix
	for _, s := range []string{
		"0.0.0.0/8", "10.0.0.0/8", "100.64.0.0/10", "127.0.0.0/8", "169.254.0.0/16", "172.16.0.0/12",
		"192.0.0.0/24", "192.0.2.0/24", "192.88.99.0/24", "192.168.0.0/16", "198.18.0.0/15", "198.51.100.0/24",
		"203.0.113.0/24", "224.0.0.0/4", "240.0.0.0/4", "255.255.255.255/32",
		"::/128", "::1/128", "fc00::/7", "fe80::/10", "fec0::/10", "ff00::/8", "100::/64", "64:ff9b::/96",
		"64:ff9b:1::/48", "2001::/32", "2001:2::/48", "2001:10::/28", "2001:20::/28", "2001:db8::/32", "3fff::/20",
	} {
		out = append(out, netip.MustParsePrefix(s))
	}
	return out
}()

// Prefixes of the IPv6 forms that carry an IPv4 address: IPv4-compatible
// (::a.b.c.d, ::/96), SIIT (::ffff:0:a.b.c.d, ::ffff:0:0:0/96; the mapped
// ::ffff:a.b.c.d, ::ffff:0:0/96, is unmapped before) and 6to4
// (2002:aabb:ccdd::/48).
var (
	compatible = netip.MustParsePrefix("::/96")
	siit       = netip.MustParsePrefix("::ffff:0:0:0/96")
	sixToFour  = netip.MustParsePrefix("2002::/16")
)

// embedded returns the IPv4 address an IPv6 address carries in one of the
// forms above (the IPv4-mapped form is unmapped before).
func embedded(ip netip.Addr) (netip.Addr, bool) {
	b := ip.As16()
	switch {
	case compatible.Contains(ip), siit.Contains(ip):
		return netip.AddrFrom4([4]byte{b[12], b[13], b[14], b[15]}), true
	case sixToFour.Contains(ip):
		return netip.AddrFrom4([4]byte{b[2], b[3], b[4], b[5]}), true
	}
	return netip.Addr{}, false
}

// Blocked reports whether ip is in a range webhooks may not reach, in any of the
// spellings that lead to the same IPv4 host.
func Blocked(ip netip.Addr) bool {
	ip = ip.Unmap().WithZone("")
	if v4, ok := embedded(ip); ok && ip.Is6() {
		return blockedPlain(v4) || blockedPlain(ip)
	}
	return blockedPlain(ip)
}

// blockedPlain checks one address against the ranges, without looking inside.
func blockedPlain(ip netip.Addr) bool {
	if !ip.IsValid() || ip.IsLoopback() || ip.IsPrivate() || ip.IsLinkLocalUnicast() || ip.IsLinkLocalMulticast() ||
		ip.IsMulticast() || ip.IsUnspecified() || ip.IsInterfaceLocalMulticast() {
		return true
	}
	for _, p := range blocked {
		if p.Contains(ip) {
			return true
		}
	}
	return false
}

// numericHost matches a host whose last label is a number (decimal, octal or
// hex): no public DNS name ends so, but some resolvers read "2130706433",
// "0x7f.1" or "0177.0.0.1" as IPv4 literals, so such a host is refused unless it
// is a plain dotted quad.
var numericHost = regexp.MustCompile(`(?i)(^|\.)(0x[0-9a-f]*|[0-9]+)\.?$`)

// Guard checks webhook addresses: the URL at save time (scheme, host, every
// address the host resolves to) and every connection at dial time, so a host
// that resolves elsewhere later (DNS rebinding) is still refused.
type Guard struct {
	// AllowPrivate lets webhooks reach private and loopback addresses
	// (development and tests only).
	AllowPrivate bool
	// Resolver looks hosts up (net.DefaultResolver when nil).
	Resolver *net.Resolver
}

// CheckURL validates a webhook URL: http or https, a host, no credentials,
// and (unless private addresses are allowed) a host whose every address is public.
func (g Guard) CheckURL(ctx context.Context, raw string) error {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Hostname() == "" || u.User != nil || len(raw) > maxURL {
		return fieldErr("url", MsgURL)
	}
	if g.AllowPrivate {
		return nil
	}
	host := u.Hostname()
	ip, err := netip.ParseAddr(host)
	if err != nil && numericHost.MatchString(host) {
		return fieldErr("url", MsgURL)
	}
	if err == nil {
		if Blocked(ip) {
			return fieldErr("url", MsgPrivate)
		}
		return nil
	}
	r := g.Resolver
	if r == nil {
		r = net.DefaultResolver
	}
	addrs, err := r.LookupNetIP(ctx, "ip", host)
	if err != nil || len(addrs) == 0 {
		return fieldErr("url", MsgResolve)
	}
	for _, a := range addrs {
		if Blocked(a) {
			return fieldErr("url", MsgPrivate)
		}
	}
	return nil
}

// Control is a net.Dialer Control function that refuses blocked addresses at
// the moment of connecting (after DNS resolution).
func (g Guard) Control(_, address string, _ syscall.RawConn) error {
	if g.AllowPrivate {
		return nil
	}
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return fmt.Errorf("webhook: unexpected dial address %q", address)
	}
	if Blocked(ap.Addr()) {
		return fmt.Errorf("webhook: %s is a private or reserved address", ap.Addr())
	}
	return nil
}
