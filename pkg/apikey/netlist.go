package apikey

import (
	"net/netip"
	"strings"

	"github.com/chapar/chapar/pkg/validate"
)

// MaxIPs caps the allow-list of one key.
const MaxIPs = 50

// ParseAllowList parses an allow-list of single addresses and CIDR ranges, IPv4 and
// IPv6, into canonical prefixes (a single address becomes /32 or /128). The first
// bad entry is returned as bad.
func ParseAllowList(entries []string) (list []netip.Prefix, bad string, ok bool) {
	for _, e := range entries {
		e = strings.TrimSpace(validate.ToLatinDigits(e))
		if e == "" {
			continue
		}
		p, err := parseEntry(e)
		if err != nil {
			return nil, e, false
		}
		list = append(list, p)
	}
	return list, "", true
}

func parseEntry(e string) (netip.Prefix, error) {
	if strings.Contains(e, "/") {
		p, err := netip.ParsePrefix(e)
		if err != nil {
			return netip.Prefix{}, err
		}
		return netip.PrefixFrom(p.Addr().Unmap(), p.Bits()).Masked(), nil
	}
	a, err := netip.ParseAddr(e)
	if err != nil {
		return netip.Prefix{}, err
	}
	a = a.Unmap().WithZone("")
	return netip.PrefixFrom(a, a.BitLen()), nil
}

// Allowed reports whether ip is in the list; an empty list allows every address.
func Allowed(list []netip.Prefix, ip string) bool {
	if len(list) == 0 {
		return true
	}
	a, err := netip.ParseAddr(ip)
	if err != nil {
		return false
	}
	a = a.Unmap().WithZone("")
	for _, p := range list {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

func prefixStrings(list []netip.Prefix) []string {
	out := make([]string, 0, len(list))
	for _, p := range list {
		if p.IsSingleIP() {
			out = append(out, p.Addr().String())
		} else {
			out = append(out, p.String())
		}
	}
	return out
}
