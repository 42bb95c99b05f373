package httpapi

import (
	"net"
	"net/http"
	"strings"

	"github.com/gin-gonic/gin"
)

// ContentSecurityPolicy is the policy of every answer. Scripts, connections
// (fetch and the same-origin websocket), fonts and frames come from the panel's own
// origin only; no inline script runs. Inline styles are allowed because Chakra's
// emotion engine injects <style> elements; images may also be data: or blob: URLs.
const ContentSecurityPolicy = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; " +
	"img-src 'self' data: blob:; font-src 'self'; connect-src 'self'; object-src 'none'; " +
	"base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

// PermissionsPolicy turns off the powerful browser features the panel never uses.
const PermissionsPolicy = "camera=(), microphone=(), geolocation=(), payment=(), usb=(), " +
	"magnetometer=(), gyroscope=(), accelerometer=()"

// HSTS is the Strict-Transport-Security value sent on answers that came over TLS.
const HSTS = "max-age=31536000; includeSubDomains"

// securityHeaders sets the browser security headers on every answer, marks API
// answers (everything but a GET or HEAD of the panel) as not to be stored, and
// adds HSTS when the request came over TLS, directly or through a trusted proxy
// that says so in X-Forwarded-Proto.
func securityHeaders(trustedProxies []string) gin.HandlerFunc {
	trusted := parseNets(trustedProxies)
	return func(c *gin.Context) {
		h := c.Writer.Header()
		h.Set("Content-Security-Policy", ContentSecurityPolicy)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("Permissions-Policy", PermissionsPolicy)
		h.Set("Cross-Origin-Opener-Policy", "same-origin")
		if isAPIRequest(c.Request) {
			h.Set("Cache-Control", "no-store")
		}
		if overTLS(c.Request, trusted) {
			h.Set("Strict-Transport-Security", HSTS)
		}
		c.Next()
	}
}

// isAPIRequest reports whether r is answered by the API rather than the panel's
// files; the panel handler sets its own caching.
func isAPIRequest(r *http.Request) bool {
	p := r.URL.Path
	if strings.HasPrefix(p, "/v1/") || p == "/healthz" || p == "/readyz" {
		return true
	}
	return r.Method != http.MethodGet && r.Method != http.MethodHead
}

// overTLS reports whether the client reached us over TLS: the connection itself,
// or X-Forwarded-Proto https set by a proxy in trusted.
func overTLS(r *http.Request, trusted []*net.IPNet) bool {
	if r.TLS != nil {
		return true
	}
	if !strings.EqualFold(strings.TrimSpace(r.Header.Get("X-Forwarded-Proto")), "https") {
		return false
	}
	host, _, err := net.SplitHostPort(strings.TrimSpace(r.RemoteAddr))
	if err != nil {
		host = r.RemoteAddr
	}
	ip := net.ParseIP(host)
	for _, n := range trusted {
		if ip != nil && n.Contains(ip) {
			return true
		}
	}
	return false
}

// parseNets reads proxy addresses and CIDR ranges (TRUSTED_PROXIES); entries that
// are neither are skipped (SetTrustedProxies reports them).
func parseNets(list []string) []*net.IPNet {
	var out []*net.IPNet
	for _, s := range list {
		s = strings.TrimSpace(s)
		if !strings.Contains(s, "/") {
			ip := net.ParseIP(s)
			if ip == nil {
				continue
			}
			bits := 128
			if ip.To4() != nil {
				ip, bits = ip.To4(), 32
			}
			s = (&net.IPNet{IP: ip, Mask: net.CIDRMask(bits, bits)}).String()
		}
		if _, n, err := net.ParseCIDR(s); err == nil {
			out = append(out, n)
		}
	}
	return out
}
