package webhook

import (
	"context"
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"strings"
	"syscall"
)

// blocked are the address ranges a webhook may not reach unless private
// addresses are allowed (WEBHOOK_ALLOW_PRIVATE, development only): private,
// loopback, link-local, carrier-grade NAT, multicast, unspecified, and the
// IPv6 equivalents (unique local, link-local, the IPv4-mapped forms are
// unmapped first).
var blocked = func() []netip.Prefix {
	var out []netip.Prefix
	for _, s := range []string{
		"0.0.0.0/8", "10.0.0.0/8", "100.64.0.0/10", "127.0.0.0/8", "169.254.0.0/16", "172.16.0.0/12",
		"192.0.0.0/24", "192.168.0.0/16", "198.18.0.0/15", "224.0.0.0/4", "240.0.0.0/4", "255.255.255.255/32",
		"::/128", "::1/128", "fc00::/7", "fe80::/10", "ff00::/8", "64:ff9b::/96", "2001:db8::/32",
	} {
		out = append(out, netip.MustParsePrefix(s))
	}
	return out
}()

// Blocked reports whether ip is in a range webhooks may not reach.
func Blocked(ip netip.Addr) bool {
	ip = ip.Unmap()
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
	if ip, err := netip.ParseAddr(host); err == nil {
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
