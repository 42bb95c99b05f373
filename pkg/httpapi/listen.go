package httpapi

import (
	"fmt"
	"net"
	"net/http"
	"sync"

	"github.com/chapar/chapar/pkg/config"
)

// NewHTTPServer wraps the API's handler in a server with the configured time-outs:
// a slow client cannot hold a connection by trickling its headers or body, or by
// not reading the answer. Uploads, downloads and the websocket set their own
// deadlines (streamDeadlines).
func NewHTTPServer(cfg config.Config, h http.Handler) *http.Server {
	return &http.Server{
		Addr:              cfg.HTTPAddr,
		Handler:           h,
		ReadHeaderTimeout: cfg.HTTPReadHeaderTimeout,
		ReadTimeout:       cfg.HTTPReadTimeout,
		WriteTimeout:      cfg.HTTPWriteTimeout,
		IdleTimeout:       cfg.HTTPIdleTimeout,
	}
}

// Listen opens the configured address with at most cfg.HTTPMaxConnsPerIP open
// connections per client address; the trusted proxies, which carry many clients'
// connections, are not capped.
func Listen(cfg config.Config) (net.Listener, error) {
	l, err := net.Listen("tcp", cfg.HTTPAddr)
	if err != nil {
		return nil, fmt.Errorf("listen %s: %w", cfg.HTTPAddr, err)
	}
	return LimitPerIP(l, cfg.HTTPMaxConnsPerIP, cfg.TrustedProxies...), nil
}

// LimitPerIP lets each remote IP hold at most max open connections of l; a
// connection beyond that is closed as soon as it is accepted. max <= 0 means no cap.
// The exempt addresses (IPs or CIDR ranges) are not capped.
func LimitPerIP(l net.Listener, max int, exempt ...string) net.Listener {
	if max <= 0 {
		return l
	}
	pl := &perIPListener{Listener: l, max: max, open: map[string]int{}}
	for _, e := range exempt {
		if _, n, err := net.ParseCIDR(e); err == nil {
			pl.exempt = append(pl.exempt, n)
		} else if ip := net.ParseIP(e); ip != nil {
			pl.exempt = append(pl.exempt, &net.IPNet{IP: ip, Mask: net.CIDRMask(len(ip)*8, len(ip)*8)})
		}
	}
	return pl
}

type perIPListener struct {
	net.Listener
	max    int
	exempt []*net.IPNet
	mu     sync.Mutex
	open   map[string]int
}

// Accept returns the next connection whose address is under its cap.
func (l *perIPListener) Accept() (net.Conn, error) {
	for {
		conn, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		ip := remoteIP(conn)
		if l.exempted(ip) {
			return conn, nil
		}
		if l.take(ip) {
			return &countedConn{Conn: conn, release: func() { l.release(ip) }}, nil
		}
		_ = conn.Close()
	}
}

func (l *perIPListener) exempted(ip string) bool {
	parsed := net.ParseIP(ip)
	for _, n := range l.exempt {
		if parsed != nil && n.Contains(parsed) {
			return true
		}
	}
	return false
}

func (l *perIPListener) take(ip string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.open[ip] >= l.max {
		return false
	}
	l.open[ip]++
	return true
}

func (l *perIPListener) release(ip string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.open[ip]--; l.open[ip] <= 0 {
		delete(l.open, ip)
	}
}

func remoteIP(c net.Conn) string {
	host, _, err := net.SplitHostPort(c.RemoteAddr().String())
	if err != nil {
		return c.RemoteAddr().String()
	}
	return host
}

// countedConn gives its slot back once, when it is closed.
type countedConn struct {
	net.Conn
	once    sync.Once
	release func()
}

// Close closes the connection and frees its slot.
func (c *countedConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(c.release)
	return err
}
