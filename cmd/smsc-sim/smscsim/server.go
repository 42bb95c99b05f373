package smscsim

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"log/slog"
	"math/rand/v2"
	"net"
	"net/http"
	"sort"
	"sync"
	"sync/atomic"
	"time"
)

// ErrUnknownOperator is returned for an operator name the simulator does not
// listen for.
var ErrUnknownOperator = errors.New("smscsim: unknown operator")

// ErrQueueFull is returned by InjectMO when MaxPending deliver_sm already
// wait for the receivers of that operator and system_id.
var ErrQueueFull = errors.New("smscsim: deliver_sm queue full")

// Server is a running simulator. Its methods are safe for concurrent use.
type Server struct {
	cfg      Config
	log      *slog.Logger
	ops      map[string]*operator
	opList   []*operator
	store    *store
	sched    *scheduler
	outcomes outcomeTable
	started  time.Time

	forcedMu sync.Mutex
	forced   atomic.Pointer[map[string]Stat]
	// blocked are the numbers that blocked advertising SMS, per operator
	// (blocked.go), keyed by blockedKey.
	blockedMu sync.Mutex
	blocked   atomic.Pointer[map[string]string]

	nextID  atomic.Uint64
	firstID uint64
	faults  *faults
	moRef   atomic.Uint32

	heldMu    sync.Mutex
	held      []func() // submit_sm responses kept by a "hold" fault
	sessionID atomic.Uint64

	httpLn  net.Listener
	httpSrv *http.Server

	done      chan struct{}
	closeOnce sync.Once
	wg        sync.WaitGroup
}

// Start listens on every configured operator address (and the HTTP API) and
// serves until ctx is cancelled or Close is called.
func Start(ctx context.Context, c Config) (*Server, error) {
	cfg, err := c.withDefaults()
	if err != nil {
		return nil, err
	}
	srv := &Server{
		cfg:      cfg,
		log:      cfg.Logger.With("component", "smscsim"),
		ops:      make(map[string]*operator),
		store:    newStore(cfg),
		sched:    newScheduler(),
		outcomes: newOutcomeTable(cfg.Outcomes),
		started:  time.Now(),
		done:     make(chan struct{}),
	}
	forced := make(map[string]Stat, len(cfg.ForcedOutcomes))
	for d, st := range cfg.ForcedOutcomes {
		if _, err := ParseStat(string(st)); err != nil {
			return nil, err
		}
		forced[d] = st
	}
	srv.forced.Store(&forced)
	blocked := map[string]string{}
	for op, nums := range cfg.Blocked {
		for _, n := range nums {
			blocked[blockedKey(op, n)] = op + ":" + n
		}
	}
	srv.blocked.Store(&blocked)
	srv.firstID = srv.firstMessageID()
	srv.nextID.Store(srv.firstID)
	srv.faults = newFaults(cfg.SubmitFaults)

	var lc net.ListenConfig
	for _, oc := range cfg.Operators {
		ln, err := lc.Listen(ctx, "tcp", oc.Addr)
		if err != nil {
			srv.closeListeners()
			return nil, fmt.Errorf("smscsim: listen %s for %s: %w", oc.Addr, oc.Name, err)
		}
		op := &operator{
			name:      oc.Name,
			srv:       srv,
			ln:        ln,
			sessions:  make(map[*session]struct{}),
			mailboxes: make(map[string]*mailbox),
		}
		srv.ops[oc.Name] = op
		srv.opList = append(srv.opList, op)
	}
	if !cfg.NoHTTP {
		ln, err := lc.Listen(ctx, "tcp", cfg.HTTPAddr)
		if err != nil {
			srv.closeListeners()
			return nil, fmt.Errorf("smscsim: listen http %s: %w", cfg.HTTPAddr, err)
		}
		srv.httpLn = ln
		srv.httpSrv = &http.Server{
			Handler:           srv.Handler(),
			ReadHeaderTimeout: 10 * time.Second,
			ErrorLog:          slog.NewLogLogger(srv.log.Handler(), slog.LevelWarn),
		}
		srv.wg.Go(func() {
			if err := srv.httpSrv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
				srv.log.Error("http server stopped", "err", err)
			}
		})
	}
	srv.wg.Go(func() { srv.sched.run(srv.done) })
	for _, op := range srv.opList {
		srv.wg.Go(op.acceptLoop)
		srv.log.Info("smsc listening", "operator", op.name, "addr", op.ln.Addr().String())
	}
	if srv.httpLn != nil {
		srv.log.Info("smsc http api listening", "addr", srv.httpLn.Addr().String())
	}
	stop := context.AfterFunc(ctx, func() { srv.Close() })
	srv.wg.Go(func() {
		<-srv.done
		stop()
	})
	return srv, nil
}

// messageID numbers the next accepted part. With IDRestartAfter the counter
// starts over after that many ids, as an SMSC's does after a restart or a wrap:
// ids are then reused for new messages.
func (srv *Server) messageID() uint64 {
	n := srv.nextID.Add(1)
	if r := srv.cfg.IDRestartAfter; r > 0 {
		n = srv.firstID + 1 + (n-srv.firstID-1)%r
	}
	return n
}

func (srv *Server) firstMessageID() uint64 {
	if srv.cfg.Seed != 0 {
		h := fnv.New64a()
		var b [8]byte
		binary.BigEndian.PutUint64(b[:], uint64(srv.cfg.Seed))
		h.Write(b[:])
		return 0x10000000 + h.Sum64()%0x60000000
	}
	return 0x10000000 + rand.Uint64N(0x60000000)
}

func (srv *Server) closeListeners() {
	for _, op := range srv.opList {
		op.ln.Close()
	}
	if srv.httpLn != nil {
		srv.httpLn.Close()
	}
}

// Close stops the listeners, sends unbind to every bound session, closes
// all connections and waits for every goroutine of the server.
func (srv *Server) Close() error {
	srv.closeOnce.Do(func() {
		close(srv.done)
		for _, op := range srv.opList {
			op.ln.Close()
		}
		if srv.httpSrv != nil {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
			if err := srv.httpSrv.Shutdown(ctx); err != nil {
				srv.httpSrv.Close()
			}
			cancel()
		}
		for _, op := range srv.opList {
			for _, s := range op.snapshot() {
				s.shutdown()
			}
		}
		srv.wg.Wait()
		srv.log.Info("smsc stopped")
	})
	return nil
}

// Addr returns the bound SMPP address (host:port) of an operator, or "".
func (srv *Server) Addr(operator string) string {
	if op, ok := srv.ops[operator]; ok {
		return op.ln.Addr().String()
	}
	return ""
}

// Addrs returns the bound SMPP address of every operator.
func (srv *Server) Addrs() map[string]string {
	m := make(map[string]string, len(srv.opList))
	for _, op := range srv.opList {
		m[op.name] = op.ln.Addr().String()
	}
	return m
}

// Operators returns the operator names in configuration order.
func (srv *Server) Operators() []string {
	names := make([]string, len(srv.opList))
	for i, op := range srv.opList {
		names[i] = op.name
	}
	return names
}

// HTTPAddr returns the bound address of the HTTP API, or "" when disabled.
func (srv *Server) HTTPAddr() string {
	if srv.httpLn == nil {
		return ""
	}
	return srv.httpLn.Addr().String()
}

// SystemID returns the system_id the simulator accepts.
func (srv *Server) SystemID() string { return srv.cfg.SystemID }

// Password returns the password the simulator accepts.
func (srv *Server) Password() string { return srv.cfg.Password }

// Messages returns what the handset to received, oldest first.
func (srv *Server) Messages(to string) []Message {
	return srv.store.find(Query{To: to})
}

// Find returns the stored messages matching q, oldest first.
func (srv *Server) Find(q Query) []Message {
	return srv.store.find(q)
}

// Latest returns the last message the handset to received ("" for any).
func (srv *Server) Latest(to string) (Message, bool) {
	return srv.store.latest(to)
}

// ResetMessages empties the inspection store and the duplicate detector.
func (srv *Server) ResetMessages() {
	srv.store.reset()
}

// Reset empties the inspection store and the duplicate detector and zeroes
// the counters. Pending deliver_sm and bound sessions are kept.
func (srv *Server) Reset() {
	srv.store.reset()
	for _, op := range srv.opList {
		op.c.reset()
	}
}

// ForceOutcome forces the receipt state of every later submit_sm to dest;
// an empty stat removes the rule.
func (srv *Server) ForceOutcome(dest string, stat Stat) error {
	if stat != "" {
		st, err := ParseStat(string(stat))
		if err != nil {
			return err
		}
		stat = st
	}
	srv.forcedMu.Lock()
	defer srv.forcedMu.Unlock()
	old := *srv.forced.Load()
	m := make(map[string]Stat, len(old)+1)
	for k, v := range old {
		m[k] = v
	}
	if stat == "" {
		delete(m, dest)
	} else {
		m[dest] = stat
	}
	srv.forced.Store(&m)
	return nil
}

// ClearForcedOutcomes removes every forced outcome.
func (srv *Server) ClearForcedOutcomes() {
	srv.forcedMu.Lock()
	m := map[string]Stat{}
	srv.forced.Store(&m)
	srv.forcedMu.Unlock()
}

// ForcedOutcomes returns a copy of the forced outcomes.
func (srv *Server) ForcedOutcomes() map[string]Stat {
	old := *srv.forced.Load()
	m := make(map[string]Stat, len(old))
	for k, v := range old {
		m[k] = v
	}
	return m
}

// outcome decides the receipt state of a submit_sm: a forced rule for the
// destination first, then the outcome mix (deterministic for the same
// message when a seed is configured).
func (srv *Server) outcome(from, to string, key []byte) Stat {
	if st, ok := (*srv.forced.Load())[to]; ok {
		return st
	}
	if len(srv.outcomes.stats) == 0 {
		return StatDelivered
	}
	if len(srv.outcomes.stats) == 1 {
		return srv.outcomes.stats[0]
	}
	var u float64
	if srv.cfg.Seed != 0 {
		h := fnv.New64a()
		var b [8]byte
		binary.BigEndian.PutUint64(b[:], uint64(srv.cfg.Seed))
		h.Write(b[:])
		h.Write([]byte(from))
		h.Write([]byte{0})
		h.Write([]byte(to))
		h.Write([]byte{0})
		h.Write(key)
		u = float64(h.Sum64()>>11) / (1 << 53)
	} else {
		u = rand.Float64()
	}
	return srv.outcomes.pick(u)
}

func (srv *Server) receiptDelay() time.Duration {
	lo, hi := srv.cfg.ReceiptDelayMin, srv.cfg.ReceiptDelayMax
	if hi <= lo {
		return lo
	}
	return lo + rand.N(hi-lo+1)
}

// MO is a mobile-originated message to inject.
type MO struct {
	Operator string `json:"operator"`
	From     string `json:"from"`
	To       string `json:"to"`
	Text     string `json:"text"`
	// SystemID of the receiver to deliver to; default the configured one.
	SystemID string `json:"system_id,omitempty"`
	// Encoding is MOAuto (""), MOGSM7, MOUCS2 or MOLatin1.
	Encoding string `json:"encoding,omitempty"`
	// Ref16 sends a long message with a 16-bit concatenation reference (IEI 0x08).
	Ref16 bool `json:"ref16,omitempty"`
	// Parts are the 1-based part numbers to send, in that order: [3,1,2] sends
	// out of order, [1,3] loses part 2. Empty: every part in order.
	Parts []int `json:"parts,omitempty"`
	// SplitSurrogates sends the text as UCS-2 cut every 134 octets, even
	// between the two halves of a surrogate pair (an emoji split across parts).
	SplitSurrogates bool `json:"split_surrogates,omitempty"`
	// Poison puts bytes that are not UTF-8 into the source address ("source"),
	// the destination address ("dest") or the text ("text", sent as IA5).
	Poison PoisonField `json:"poison,omitempty"`
}

// InjectMO queues a deliver_sm (esm_class 0x00; GSM 7-bit when possible,
// UCS-2 otherwise, or the MO's Encoding; concatenated with an 8-bit reference
// when long, or a 16-bit one, its parts in the MO's order) for the
// receivers of the operator. It is delivered, retried and kept pending like
// a receipt, so it waits for a receiver to bind if none is bound. It returns
// the number of parts queued.
func (srv *Server) InjectMO(mo MO) (int, error) {
	op, ok := srv.ops[mo.Operator]
	if !ok {
		return 0, fmt.Errorf("%w %q", ErrUnknownOperator, mo.Operator)
	}
	if mo.From == "" || mo.To == "" {
		return 0, errors.New("smscsim: MO needs from and to")
	}
	sysID := mo.SystemID
	if sysID == "" {
		sysID = srv.cfg.SystemID
	}
	mb := op.mailbox(sysID)
	if mb.full() {
		return 0, ErrQueueFull
	}
	dc, parts, err := encodeMOAs(mo, uint16(srv.moRef.Add(1)))
	if err != nil {
		return 0, err
	}
	for _, p := range parts {
		raw, err := encodeMODeliver(poison(mo.From, PoisonSource, mo.Poison), poison(mo.To, PoisonDest, mo.Poison), dc, p)
		if err == nil && srv.cfg.DataSM {
			raw, err = asDataSM(raw)
		}
		if err != nil {
			return 0, err
		}
		mb.admit(kindMO)
		op.c.moInjected.Add(1)
		mb.enqueue(&item{kind: kindMO, mb: mb, raw: raw}, false)
	}
	srv.log.Debug("mo injected", "operator", op.name, "from", mo.From, "to", mo.To, "parts", len(parts))
	return len(parts), nil
}

// Disconnect drops every connection of an operator now (after <= 0), or
// right after it accepts after more submit_sm. operator "*" means all.
func (srv *Server) Disconnect(operator string, after int) error {
	return srv.disconnect(operator, after, 0)
}

// Outage drops every connection of an operator now and refuses new ones
// (accepted, then closed at once) for d. operator "*" means all.
func (srv *Server) Outage(operator string, d time.Duration) error {
	return srv.disconnect(operator, 0, d)
}

func (srv *Server) disconnect(operator string, after int, down time.Duration) error {
	ops, err := srv.selectOps(operator)
	if err != nil {
		return err
	}
	for _, op := range ops {
		op.downFor.Store(int64(down))
		if after > 0 {
			op.dropAfter.Store(int64(after))
			srv.log.Info("disconnect armed", "operator", op.name, "after_submits", after)
			continue
		}
		op.dropAfter.Store(0)
		op.dropAll("injected disconnect")
	}
	return nil
}

// CarrierConditions set an operator's behaviour at run time: Rate accepted
// submit_sm per second over all its sessions (0: no limit beyond Config.Rate)
// and a Delay before each accepted submit_sm is answered (0: none).
type CarrierConditions struct {
	Operator string  `json:"operator"`
	Rate     float64 `json:"rate"`
	DelayMS  int64   `json:"delay_ms"`
}

// SetConditions applies c to its operator ("*" or "all": every one).
func (srv *Server) SetConditions(c CarrierConditions) error {
	ops, err := srv.selectOps(c.Operator)
	if err != nil {
		return err
	}
	for _, op := range ops {
		op.limit.set(c.Rate)
		op.respDelay.Store(int64(time.Duration(c.DelayMS) * time.Millisecond))
	}
	srv.log.Info("carrier conditions", "operator", c.Operator, "rate", c.Rate, "delay_ms", c.DelayMS)
	return nil
}

// opLimit is an operator-wide token bucket; nil bucket: no limit.
type opLimit struct {
	mu sync.Mutex
	b  *bucket
}

func (l *opLimit) set(rate float64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.b = nil
	if rate > 0 {
		l.b = newBucket(rate, max(1, int(rate/5)))
	}
}

func (l *opLimit) allow(now time.Time) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b == nil || l.b.allow(now)
}

func (srv *Server) selectOps(name string) ([]*operator, error) {
	if name == "*" || name == "all" {
		return srv.opList, nil
	}
	op, ok := srv.ops[name]
	if !ok {
		return nil, fmt.Errorf("%w %q", ErrUnknownOperator, name)
	}
	return []*operator{op}, nil
}

// operator is one simulated carrier: a listener, its sessions and the
// mailboxes of the system_ids that bound to it.
type operator struct {
	name string
	srv  *Server
	ln   net.Listener
	c    counters

	mu        sync.Mutex
	sessions  map[*session]struct{}
	mailboxes map[string]*mailbox
	bound     map[string]int // bound sessions per system_id

	// Carrier conditions set at run time (POST /control/carrier): a rate over
	// every session of the operator, and a delay of every submit_sm_resp.
	limit     opLimit
	respDelay atomic.Int64 // nanoseconds

	dropAfter atomic.Int64 // >0: drop every session after that many more accepted submits
	downFor   atomic.Int64 // refuse connections for this long after an injected drop
	downUntil atomic.Int64 // unix nanoseconds
}

func (op *operator) acceptLoop() {
	for {
		conn, err := op.ln.Accept()
		if err != nil {
			select {
			case <-op.srv.done:
				return
			default:
			}
			if errors.Is(err, net.ErrClosed) {
				return
			}
			op.srv.log.Warn("accept failed", "operator", op.name, "err", err)
			time.Sleep(50 * time.Millisecond)
			continue
		}
		if time.Now().UnixNano() < op.downUntil.Load() {
			conn.Close()
			continue
		}
		s := newSession(op, conn)
		op.mu.Lock()
		select {
		case <-op.srv.done:
			op.mu.Unlock()
			conn.Close()
			return
		default:
		}
		op.sessions[s] = struct{}{}
		op.mu.Unlock()
		op.srv.wg.Go(s.serve)
	}
}

func (op *operator) removeSession(s *session) {
	op.mu.Lock()
	delete(op.sessions, s)
	if s.bound != unbound {
		op.bound[s.systemID]--
	}
	op.mu.Unlock()
}

// takeBind counts one more bound session of systemID, unless max (> 0) are
// bound already.
func (op *operator) takeBind(systemID string, max int) bool {
	op.mu.Lock()
	defer op.mu.Unlock()
	if max > 0 && op.bound[systemID] >= max {
		return false
	}
	if op.bound == nil {
		op.bound = map[string]int{}
	}
	op.bound[systemID]++
	return true
}

// Bound is how many sessions of systemID are bound to operator now.
func (s *Server) Bound(operator, systemID string) int {
	op := s.ops[operator]
	if op == nil {
		return 0
	}
	op.mu.Lock()
	defer op.mu.Unlock()
	return op.bound[systemID]
}

func (op *operator) snapshot() []*session {
	op.mu.Lock()
	defer op.mu.Unlock()
	out := make([]*session, 0, len(op.sessions))
	for s := range op.sessions {
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].id < out[j].id })
	return out
}

func (op *operator) mailbox(systemID string) *mailbox {
	op.mu.Lock()
	defer op.mu.Unlock()
	mb, ok := op.mailboxes[systemID]
	if !ok {
		mb = newMailbox(op, systemID, &op.srv.cfg)
		op.mailboxes[systemID] = mb
	}
	return mb
}

// consumeDrop counts one accepted submit against an armed disconnect and
// reports whether the connections must drop now.
func (op *operator) consumeDrop() bool {
	for {
		v := op.dropAfter.Load()
		if v <= 0 {
			return false
		}
		if op.dropAfter.CompareAndSwap(v, v-1) {
			return v == 1
		}
	}
}

// dropAll closes every connection abruptly, like a network failure (no
// unbind).
func (op *operator) dropAll(reason string) {
	if d := op.downFor.Load(); d > 0 {
		op.downUntil.Store(time.Now().Add(time.Duration(d)).UnixNano())
	}
	ss := op.snapshot()
	op.c.disconnects.Add(int64(len(ss)))
	for _, s := range ss {
		s.close()
	}
	op.srv.log.Info("dropped connections", "operator", op.name, "sessions", len(ss), "reason", reason)
}
