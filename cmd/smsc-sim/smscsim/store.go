package smscsim

import (
	"hash/maphash"
	"slices"
	"sync"
	"time"
)

// Message is what one simulated handset received: the decoded text of a
// submit_sm, or of all the parts of a concatenated message once every part
// arrived.
type Message struct {
	ID          int64     `json:"id"`
	Operator    string    `json:"operator"`
	SystemID    string    `json:"system_id"`
	From        string    `json:"from"`
	To          string    `json:"to"`
	Text        string    `json:"text"`
	Encoding    string    `json:"encoding"`
	DataCoding  uint8     `json:"data_coding"`
	Parts       int       `json:"parts"`
	Ref         *int      `json:"ref,omitempty"`
	MessageIDs  []string  `json:"message_ids"`
	Outcomes    []Stat    `json:"outcomes"`
	FirstSubmit time.Time `json:"first_submit"`
	LastSubmit  time.Time `json:"last_submit"`
}

// Query filters stored messages; empty fields match everything.
type Query struct {
	To       string
	From     string
	Operator string
	Since    time.Time // LastSubmit at or after
	Limit    int       // the most recent Limit messages; 0 means all
}

// StoreStats describes the inspection store.
type StoreStats struct {
	Stored          int   `json:"stored"`           // messages currently kept with text
	Completed       int64 `json:"completed"`        // messages completed since the last reset
	Evicted         int64 `json:"evicted"`          // dropped from the ring to keep the cap
	CountedOnly     int64 `json:"counted_only"`     // parts not stored (bench cap reached)
	Partial         int   `json:"partial"`          // concatenated messages still missing parts
	PartialsEvicted int64 `json:"partials_evicted"` // incomplete messages given up
	Cap             int   `json:"cap"`
}

// part is one accepted submit_sm as seen by the store.
type part struct {
	operator, systemID string
	from, to           string
	dc                 uint8
	payload            []byte
	c                  concat
	concatenated       bool
	msgID              string
	outcome            Stat
	// err is the receipt's error code when it is not the outcome's own (a
	// number blocked at its operator).
	err string
	at  time.Time
}

type partKey struct {
	from, to string
	ref      uint16
	wide     bool
	total    uint8
}

type partial struct {
	gen   uint64
	parts []*part // indexed by seq-1
	got   int
}

type orderEntry struct {
	key partKey
	gen uint64
}

// store keeps reassembled messages (bounded ring), partial reassemblies
// (bounded) and the duplicate detector (bounded).
type store struct {
	cap        int
	countOnly  bool
	keep       map[string]bool // sources stored even when frozen
	maxPartial int
	dedupCap   int
	seed       maphash.Seed

	mu          sync.Mutex
	ring        []*Message
	head        int // next write position once the ring is full
	nextID      int64
	completed   int64
	evicted     int64
	countedOnly int64
	frozen      bool // countOnly and cap reached

	partials        map[partKey]*partial
	order           []orderEntry
	gen             uint64
	partialsEvicted int64

	seen     map[uint64]struct{}
	seenRing []uint64
	seenPos  int
	dupTotal int64
	dupDests map[string]int64
}

const maxDupDests = 1000

func newStore(cfg Config) *store {
	st := &store{
		cap:        cfg.MaxStored,
		countOnly:  cfg.CountOnlyAboveCap,
		keep:       map[string]bool{},
		maxPartial: cfg.MaxPartial,
		dedupCap:   cfg.DedupCap,
		seed:       maphash.MakeSeed(),
	}
	for _, from := range cfg.KeepFrom {
		st.keep[from] = true
	}
	st.resetLocked()
	return st
}

func (st *store) resetLocked() {
	st.ring = nil
	st.head = 0
	st.completed, st.evicted, st.countedOnly = 0, 0, 0
	st.frozen = false
	st.partials = make(map[partKey]*partial)
	st.order = nil
	st.partialsEvicted = 0
	st.seen = make(map[uint64]struct{})
	st.seenRing = nil
	st.seenPos = 0
	st.dupTotal = 0
	st.dupDests = make(map[string]int64)
}

func (st *store) reset() {
	st.mu.Lock()
	st.resetLocked()
	st.mu.Unlock()
}

// fingerprint identifies a submit_sm for duplicate detection: source,
// destination, data_coding and the short_message bytes including the UDH.
func (st *store) fingerprint(from, to string, dc uint8, sm []byte) uint64 {
	var h maphash.Hash
	h.SetSeed(st.seed)
	h.WriteString(from)
	h.WriteByte(0)
	h.WriteString(to)
	h.WriteByte(0)
	h.WriteByte(dc)
	h.Write(sm)
	return h.Sum64()
}

// add records an accepted part. sm is the whole short_message (with UDH)
// used for duplicate detection. It reports whether the submit_sm repeats an
// earlier one.
func (st *store) add(p *part, sm []byte) (dup bool) {
	fp := st.fingerprint(p.from, p.to, p.dc, sm)
	st.mu.Lock()
	defer st.mu.Unlock()

	if _, ok := st.seen[fp]; ok {
		dup = true
		st.dupTotal++
		if _, ok := st.dupDests[p.to]; ok || len(st.dupDests) < maxDupDests {
			st.dupDests[p.to]++
		}
	} else {
		if len(st.seenRing) < st.dedupCap {
			st.seenRing = append(st.seenRing, fp)
		} else {
			delete(st.seen, st.seenRing[st.seenPos])
			st.seenRing[st.seenPos] = fp
			st.seenPos = (st.seenPos + 1) % st.dedupCap
		}
		st.seen[fp] = struct{}{}
	}

	if st.frozen && !st.keep[p.from] {
		st.countedOnly++
		return dup
	}
	if !p.concatenated {
		st.completeLocked([]*part{p}, nil)
		return dup
	}
	k := partKey{from: p.from, to: p.to, ref: p.c.ref, wide: p.c.wide, total: p.c.total}
	pa := st.partials[k]
	if pa == nil {
		st.gen++
		pa = &partial{gen: st.gen, parts: make([]*part, p.c.total)}
		st.partials[k] = pa
		st.order = append(st.order, orderEntry{key: k, gen: pa.gen})
		st.evictPartialsLocked()
	}
	if pa.parts[p.c.seq-1] != nil {
		// The same part again: the first copy is what the handset shows.
		return dup
	}
	pa.parts[p.c.seq-1] = p
	pa.got++
	if pa.got == len(pa.parts) {
		delete(st.partials, k)
		ref := int(p.c.ref)
		st.completeLocked(pa.parts, &ref)
	}
	return dup
}

func (st *store) evictPartialsLocked() {
	for len(st.partials) > st.maxPartial && len(st.order) > 0 {
		e := st.order[0]
		st.order = st.order[1:]
		if pa, ok := st.partials[e.key]; ok && pa.gen == e.gen {
			delete(st.partials, e.key)
			st.partialsEvicted++
		}
	}
	if len(st.order) > 2*st.maxPartial+64 {
		live := st.order[:0]
		for _, e := range st.order {
			if pa, ok := st.partials[e.key]; ok && pa.gen == e.gen {
				live = append(live, e)
			}
		}
		st.order = slices.Clip(live)
	}
}

func (st *store) completeLocked(parts []*part, ref *int) {
	st.completed++
	first := parts[0]
	var payload []byte
	m := &Message{
		Operator:    first.operator,
		SystemID:    first.systemID,
		From:        first.from,
		To:          first.to,
		Encoding:    encodingName(first.dc),
		DataCoding:  first.dc,
		Parts:       len(parts),
		Ref:         ref,
		MessageIDs:  make([]string, len(parts)),
		Outcomes:    make([]Stat, len(parts)),
		FirstSubmit: first.at,
		LastSubmit:  first.at,
	}
	for i, p := range parts {
		payload = append(payload, p.payload...)
		m.MessageIDs[i] = p.msgID
		m.Outcomes[i] = p.outcome
		if p.at.Before(m.FirstSubmit) {
			m.FirstSubmit = p.at
		}
		if p.at.After(m.LastSubmit) {
			m.LastSubmit = p.at
		}
	}
	// Decoding the joined payload keeps characters split across parts.
	m.Text = decodeText(first.dc, payload)
	st.nextID++
	m.ID = st.nextID
	if len(st.ring) < st.cap {
		st.ring = append(st.ring, m)
		if st.countOnly && len(st.ring) == st.cap {
			st.frozen = true
		}
		return
	}
	st.ring[st.head] = m
	st.head = (st.head + 1) % st.cap
	st.evicted++
}

// find returns matching messages in the order they completed.
func (st *store) find(q Query) []Message {
	st.mu.Lock()
	defer st.mu.Unlock()
	var out []Message
	n := len(st.ring)
	for i := range n {
		m := st.ring[(st.head+i)%n]
		if q.To != "" && m.To != q.To ||
			q.From != "" && m.From != q.From ||
			q.Operator != "" && m.Operator != q.Operator ||
			!q.Since.IsZero() && m.LastSubmit.Before(q.Since) {
			continue
		}
		out = append(out, *m)
	}
	if q.Limit > 0 && len(out) > q.Limit {
		out = out[len(out)-q.Limit:]
	}
	return out
}

// latest returns the most recently completed message to a destination.
func (st *store) latest(to string) (Message, bool) {
	st.mu.Lock()
	defer st.mu.Unlock()
	n := len(st.ring)
	for i := n - 1; i >= 0; i-- {
		m := st.ring[(st.head+i)%n]
		if to == "" || m.To == to {
			return *m, true
		}
	}
	return Message{}, false
}

func (st *store) stats() (StoreStats, int64, []string) {
	st.mu.Lock()
	defer st.mu.Unlock()
	dests := make([]string, 0, len(st.dupDests))
	for d := range st.dupDests {
		dests = append(dests, d)
	}
	slices.Sort(dests)
	return StoreStats{
		Stored:          len(st.ring),
		Completed:       st.completed,
		Evicted:         st.evicted,
		CountedOnly:     st.countedOnly,
		Partial:         len(st.partials),
		PartialsEvicted: st.partialsEvicted,
		Cap:             st.cap,
	}, st.dupTotal, dests
}
