package live

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/gorilla/websocket"
	"github.com/redis/go-redis/v9"

	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/apperr"
)

// HubConfig tunes a Hub; zero fields take the defaults.
type HubConfig struct {
	// Prefix of the per-account channels (DefaultPrefix). Must hold no glob characters.
	Prefix string
	Log    *slog.Logger
	// ReadTimeout closes a socket that sent nothing (no "9", no pong) for this long (30 s).
	ReadTimeout time.Duration
	// WriteTimeout bounds one write to a socket (10 s).
	WriteTimeout time.Duration
	// SendBuffer is how many events may wait for a slow socket before it is dropped (64).
	SendBuffer int
	// MaxPerAccount bounds the sockets of one account on this instance (20). The cap
	// is per instance on purpose: it protects this process's memory and descriptors,
	// and a counter kept here cannot leak when another instance dies. A slot is
	// reserved atomically before the upgrade and released when the socket ends.
	MaxPerAccount int
	// AllowedOrigins are browser origins ("https://panel.example") accepted besides
	// the request's own host.
	AllowedOrigins []string
}

// Errors of Serve, before the upgrade (nothing written yet). ErrClosed wraps
// context.Canceled, which the API answers with 503.
var (
	ErrClosed      = fmt.Errorf("live: hub closed: %w", context.Canceled)
	ErrTooManyConn = apperr.RateLimit(5)
)

// Hub serves the websockets of one API instance: one pattern subscription to every
// account's channel, fanned out in-process to the sockets of that account.
type Hub struct {
	rdb      redis.UniversalClient
	cfg      HubConfig
	log      *slog.Logger
	upgrader websocket.Upgrader
	ready    chan struct{}
	readyOne sync.Once

	mu      sync.RWMutex
	closed  bool
	clients map[int64]map[*client]struct{}
	// slots counts the sockets of each account, upgrading ones included.
	slots map[int64]int
	// revoked holds recently revoked sessions (until when), so a socket whose ticket
	// was redeemed just before its session's revocation arrived is refused too.
	revoked map[int64]time.Time
	wg      sync.WaitGroup
	// metrics are registered by Instrument (metrics.go).
	metrics hubMetrics
}

// revokedMemory is how long a revoked session stays in Hub.revoked: far longer than
// an upgrade can take between the session check and the socket joining.
const revokedMemory = time.Minute

// NewHub builds a hub; Run must run for events to flow.
func NewHub(rdb redis.UniversalClient, cfg HubConfig) *Hub {
	if cfg.Prefix == "" {
		cfg.Prefix = DefaultPrefix
	}
	if cfg.Log == nil {
		cfg.Log = slog.Default()
	}
	if cfg.ReadTimeout <= 0 {
		cfg.ReadTimeout = 30 * time.Second
	}
	if cfg.WriteTimeout <= 0 {
		cfg.WriteTimeout = 10 * time.Second
	}
	if cfg.SendBuffer <= 0 {
		cfg.SendBuffer = 64
	}
	if cfg.MaxPerAccount <= 0 {
		cfg.MaxPerAccount = 20
	}
	h := &Hub{rdb: rdb, cfg: cfg, log: cfg.Log.With("component", "live"), ready: make(chan struct{}),
		clients: map[int64]map[*client]struct{}{}, slots: map[int64]int{}, revoked: map[int64]time.Time{},
		metrics: newHubMetrics(nil)}
	h.upgrader = websocket.Upgrader{
		ReadBufferSize:    1024,
		WriteBufferSize:   4096,
		HandshakeTimeout:  10 * time.Second,
		CheckOrigin:       h.checkOrigin,
		EnableCompression: false,
	}
	return h
}

// Publisher returns a publisher on the channels this hub serves.
func (h *Hub) Publisher() *Publisher { return NewPublisher(h.rdb, h.cfg.Prefix) }

// Ready is closed once the Redis subscription is confirmed.
func (h *Hub) Ready() <-chan struct{} { return h.ready }

// Run subscribes to every account's channel and fans the events out until ctx ends,
// then closes every socket (close code 1001). The subscription reconnects by itself
// after a Redis outage; events published meanwhile are lost (at most once).
func (h *Hub) Run(ctx context.Context) error {
	defer h.Close()
	ps := h.rdb.PSubscribe(ctx, h.cfg.Prefix+"*")
	defer ps.Close()
	backoff := 100 * time.Millisecond
	for {
		_, err := ps.Receive(ctx)
		if err == nil {
			break
		}
		if ctx.Err() != nil {
			return nil
		}
		h.log.Warn("live: subscribe failed, retrying", "err", err, "in", backoff)
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(backoff):
		}
		backoff = min(2*backoff, 5*time.Second)
	}
	h.readyOne.Do(func() { close(h.ready) })
	h.log.Info("live: subscribed", "pattern", h.cfg.Prefix+"*")
	ch := ps.Channel(redis.WithChannelSize(1024))
	for {
		select {
		case <-ctx.Done():
			return nil
		case m, ok := <-ch:
			if !ok {
				return errors.New("live: subscription closed")
			}
			h.dispatch(m.Channel, []byte(m.Payload))
		}
	}
}

// dispatch hands one event to every socket of its account whose identity may read
// it (Allowed); a socket whose buffer is full is dropped rather than slowing the others (the panel reconnects and refetches).
func (h *Hub) dispatch(ch string, payload []byte) {
	account, ok := accountOf(h.cfg.Prefix, ch)
	if !ok {
		return
	}
	h.mu.RLock()
	defer h.mu.RUnlock()
	event, named := "", false
	for c := range h.clients[account] {
		if !c.id.IsOwner {
			if !named {
				event, named = eventName(payload), true
			}
			if !Allowed(c.id, event) {
				continue
			}
		}
		select {
		case c.send <- payload:
			h.metrics.sent.Inc()
		default:
			h.metrics.dropped.Inc()
			h.log.Warn("live: slow socket dropped", "account", account)
			go c.close(websocket.CloseTryAgainLater, "too slow")
		}
	}
}

// Serve upgrades the request to a websocket of the account's session and serves it
// until either side closes or the session is revoked (CloseSessions). The caller has
// authenticated the request. An error is returned only before the upgrade, when
// nothing was written: the caller answers it. A failed handshake is answered by the
// upgrader itself.
func (h *Hub) Serve(w http.ResponseWriter, r *http.Request, id acl.Identity) error {
	accountID, sessionID := id.AccountID, id.SessionID
	if accountID <= 0 {
		return apperr.ErrUnauthorized
	}
	if err := h.reserve(accountID, sessionID); err != nil {
		return err
	}
	ws, err := h.upgrader.Upgrade(w, r, nil)
	if err != nil {
		h.release(accountID)
		h.log.Debug("live: handshake failed", "err", err)
		return nil
	}
	c := &client{hub: h, ws: ws, account: accountID, session: sessionID, id: id,
		send: make(chan []byte, h.cfg.SendBuffer), done: make(chan struct{})}
	if reason, ok := h.add(c); !ok {
		h.release(accountID)
		c.close(reason.code, reason.text)
		return nil
	}
	defer h.remove(c)
	go func() {
		defer h.wg.Done()
		c.writeLoop()
	}()
	c.readLoop()
	c.close(websocket.CloseNormalClosure, "")
	return nil
}

// reserve takes one of the account's slots, atomically with the check of the cap.
func (h *Hub) reserve(accountID, sessionID int64) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return ErrClosed
	}
	if _, gone := h.revoked[sessionID]; gone {
		return apperr.ErrUnauthorized
	}
	if h.slots[accountID] >= h.cfg.MaxPerAccount {
		return ErrTooManyConn
	}
	h.slots[accountID]++
	return nil
}

// release gives a slot of the account back.
func (h *Hub) release(accountID int64) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.releaseLocked(accountID)
}

func (h *Hub) releaseLocked(accountID int64) {
	if h.slots[accountID] <= 1 {
		delete(h.slots, accountID)
		return
	}
	h.slots[accountID]--
}

// CloseSessions closes the sockets of revoked sessions (close code 1008) and refuses
// new ones of them for a while. It is called on every instance for each revocation.
func (h *Hub) CloseSessions(sessionIDs ...int64) {
	now := time.Now()
	want := make(map[int64]bool, len(sessionIDs))
	var gone []*client
	h.mu.Lock()
	for id, until := range h.revoked {
		if now.After(until) {
			delete(h.revoked, id)
		}
	}
	for _, id := range sessionIDs {
		want[id] = true
		h.revoked[id] = now.Add(revokedMemory)
	}
	for _, set := range h.clients {
		for c := range set {
			if want[c.session] {
				gone = append(gone, c)
			}
		}
	}
	h.mu.Unlock()
	for _, c := range gone {
		c.close(websocket.ClosePolicyViolation, "session revoked")
	}
	if len(gone) > 0 {
		h.log.Info("live: sockets of revoked sessions closed", "sockets", len(gone))
	}
}

// CloseUsers closes the sockets of users whose role or permissions changed (close
// code 1012, service restart): the panel reconnects with a new ticket and so with
// the new permissions. Their sessions stay valid. It is called on every instance.
func (h *Hub) CloseUsers(userIDs ...int64) {
	if len(userIDs) == 0 {
		return
	}
	want := make(map[int64]bool, len(userIDs))
	for _, u := range userIDs {
		want[u] = true
	}
	var gone []*client
	h.mu.RLock()
	for _, set := range h.clients {
		for c := range set {
			if want[c.id.UserID] {
				gone = append(gone, c)
			}
		}
	}
	h.mu.RUnlock()
	go func() { // never under the caller's locks: a close may wait on a slow peer
		for _, c := range gone {
			c.close(websocket.CloseServiceRestart, "permissions changed")
		}
	}()
}

// Clients counts the sockets of an account on this instance.
func (h *Hub) Clients(accountID int64) int {
	h.mu.RLock()
	defer h.mu.RUnlock()
	return len(h.clients[accountID])
}

// Close refuses new sockets and closes the open ones with 1001 (going away). It is
// safe to call more than once; Run calls it on exit.
func (h *Hub) Close() {
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		return
	}
	h.closed = true
	var all []*client
	for _, set := range h.clients {
		for c := range set {
			all = append(all, c)
		}
	}
	h.mu.Unlock()
	for _, c := range all {
		c.close(websocket.CloseGoingAway, "server shutting down")
	}
	h.wg.Wait()
}

// closeReason is why a socket was refused after its upgrade.
type closeReason struct {
	code int
	text string
}

// add registers an upgraded socket, unless the hub closed or its session was revoked
// while it was upgrading.
func (h *Hub) add(c *client) (closeReason, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return closeReason{websocket.CloseGoingAway, "server shutting down"}, false
	}
	if _, gone := h.revoked[c.session]; gone {
		return closeReason{websocket.ClosePolicyViolation, "session revoked"}, false
	}
	set := h.clients[c.account]
	if set == nil {
		set = map[*client]struct{}{}
		h.clients[c.account] = set
	}
	set[c] = struct{}{}
	h.metrics.opened.Inc()
	h.wg.Add(1) // under the lock, so Close never waits while a socket is still joining
	return closeReason{}, true
}

// remove unregisters a socket and releases its slot.
func (h *Hub) remove(c *client) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if set := h.clients[c.account]; set != nil {
		delete(set, c)
		if len(set) == 0 {
			delete(h.clients, c.account)
		}
	}
	h.releaseLocked(c.account)
}

// checkOrigin accepts clients without an Origin (not browsers), the request's own
// host and the configured origins.
func (h *Hub) checkOrigin(r *http.Request) bool {
	origin := r.Header.Get("Origin")
	if origin == "" {
		return true
	}
	u, err := url.Parse(origin)
	if err != nil {
		return false
	}
	if strings.EqualFold(u.Host, r.Host) {
		return true
	}
	for _, o := range h.cfg.AllowedOrigins {
		if strings.EqualFold(strings.TrimSuffix(o, "/"), origin) {
			return true
		}
	}
	return false
}

// ping is the client's keep-alive text; the server answers it in kind.
var ping = []byte("9")

// client is one websocket. Only writeLoop writes data frames; close may run anywhere.
type client struct {
	hub     *Hub
	ws      *websocket.Conn
	account int64
	session int64
	id      acl.Identity // its permissions filter the events it receives
	send    chan []byte
	done    chan struct{}
	once    sync.Once
}

// readLoop reads until the socket fails or closes; any message, pong or ping
// extends the read deadline, and "9" is answered with "9".
func (c *client) readLoop() {
	timeout := c.hub.cfg.ReadTimeout
	extend := func() { _ = c.ws.SetReadDeadline(time.Now().Add(timeout)) }
	c.ws.SetReadLimit(4096)
	extend()
	c.ws.SetPongHandler(func(string) error { extend(); return nil })
	c.ws.SetPingHandler(func(data string) error {
		extend()
		err := c.ws.WriteControl(websocket.PongMessage, []byte(data), time.Now().Add(c.hub.cfg.WriteTimeout))
		if err != nil && !errors.Is(err, websocket.ErrCloseSent) {
			return err
		}
		return nil
	})
	for {
		typ, msg, err := c.ws.ReadMessage()
		if err != nil {
			return
		}
		extend()
		if typ == websocket.TextMessage && bytes.Equal(bytes.TrimSpace(msg), ping) {
			select {
			case c.send <- ping:
			default: // events are queued; they prove the connection as well
			}
		}
	}
}

// writeLoop writes the queued messages and a ping frame at half the read timeout,
// so clients that answer pings but never send "9" stay connected too.
func (c *client) writeLoop() {
	t := time.NewTicker(c.hub.cfg.ReadTimeout / 2)
	defer t.Stop()
	for {
		select {
		case <-c.done:
			return
		case msg := <-c.send:
			_ = c.ws.SetWriteDeadline(time.Now().Add(c.hub.cfg.WriteTimeout))
			if err := c.ws.WriteMessage(websocket.TextMessage, msg); err != nil {
				c.close(websocket.CloseAbnormalClosure, "")
				return
			}
		case <-t.C:
			if err := c.ws.WriteControl(websocket.PingMessage, nil, time.Now().Add(c.hub.cfg.WriteTimeout)); err != nil {
				c.close(websocket.CloseAbnormalClosure, "")
				return
			}
		}
	}
}

// close sends a close frame (unless code is 1006, which never goes on the wire) and
// closes the connection, once.
func (c *client) close(code int, reason string) {
	c.once.Do(func() {
		close(c.done)
		if code != websocket.CloseAbnormalClosure {
			_ = c.ws.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(code, reason),
				time.Now().Add(time.Second))
		}
		_ = c.ws.Close()
	})
}
