package gateway

import (
	"bytes"
	"encoding/binary"
	"net"
	"net/url"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chapar/chapar/cmd/smsc-sim/smscsim"
	"github.com/chapar/chapar/internal/platform/db"
	"github.com/chapar/chapar/jobs"
)

// What a cutProxy does to the next claim statement it sees.
const (
	cutNone   int32 = iota
	cutQuery        // the statement never reaches the server
	cutAnswer       // the server runs and commits it; its answer never reaches the gateway
)

// cutProxy is a TCP proxy in front of PostgreSQL that cuts one connection at a
// claim statement, as a primary failing over does: before the statement reaches
// the server, or after the server has answered it in full (committed) while the
// answer is dropped. The gateway's pool speaks the simple protocol through it, so
// a statement's text travels with every execution.
type cutProxy struct {
	ln        net.Listener
	target    string
	armed     atomic.Int32
	cuts      atomic.Int32
	committed atomic.Int32 // claims whose answer was dropped after their commit
}

func startCutProxy(t *testing.T, target string) *cutProxy {
	t.Helper()
	p := &cutProxy{target: target}
	p.ln = serveTCP(t, p.serve)
	return p
}

func (p *cutProxy) serve(c net.Conn) {
	s, err := net.Dial("tcp", p.target)
	if err != nil {
		_ = c.Close()
		return
	}
	closeBoth := sync.OnceFunc(func() { _ = c.Close(); _ = s.Close() })
	defer closeBoth()
	var doomed atomic.Bool
	go func() {
		defer closeBoth()
		p.toClient(c, s, &doomed)
	}()
	buf := make([]byte, 64<<10)
	for {
		n, err := c.Read(buf)
		if n > 0 {
			if bytes.Contains(buf[:n], []byte("INSERT INTO recipient_claims")) {
				switch p.armed.Swap(cutNone) {
				case cutQuery:
					p.cuts.Add(1)
					return
				case cutAnswer:
					p.cuts.Add(1)
					doomed.Store(true)
				}
			}
			if _, err := s.Write(buf[:n]); err != nil {
				return
			}
		}
		if err != nil {
			return
		}
	}
}

// toClient copies the server's bytes to the client; once the connection is
// doomed it reads the whole answer (to ReadyForQuery: the statement has
// committed or failed), drops it and returns.
func (p *cutProxy) toClient(c, s net.Conn, doomed *atomic.Bool) {
	buf := make([]byte, 64<<10)
	var held []byte
	for {
		n, err := s.Read(buf)
		if n > 0 && doomed.Load() {
			held = append(held, buf[:n]...)
			if done, ok := answered(held); done {
				if ok {
					p.committed.Add(1)
				}
				return
			}
		} else if n > 0 {
			if _, err := c.Write(buf[:n]); err != nil {
				return
			}
		}
		if err != nil {
			return
		}
	}
}

// answered walks the backend messages of one simple-protocol answer: done once
// ReadyForQuery is there, ok when a CommandComplete came and no ErrorResponse.
func answered(b []byte) (done, ok bool) {
	var complete, failed bool
	for len(b) >= 5 {
		typ, n := b[0], int(binary.BigEndian.Uint32(b[1:5]))
		if len(b) < 1+n {
			return false, false
		}
		switch typ {
		case 'C':
			complete = true
		case 'E':
			failed = true
		case 'Z':
			return true, complete && !failed
		}
		b = b[1+n:]
	}
	return false, false
}

// A claim statement that fails on the gateway's side, as at a primary's
// failover: when it had committed all the same, the gateway gives the claim back
// once connected again, so its granted recipients are sent instead of being left
// to the sweeper as unknown (charged, never sent); when it had not, nothing is
// there to give back. Either way every recipient is sent once, none is unknown
// and no claim is left. No sweeper runs here: without the give-back the
// committed claim's recipients stay claimed and the send never completes.
func TestLostClaimGivenBack(t *testing.T) {
	for _, tc := range []struct {
		name string
		mode int32
	}{{"answer lost after commit", cutAnswer}, {"statement lost", cutQuery}} {
		t.Run(tc.name, func(t *testing.T) { lostClaim(t, tc.mode) })
	}
}

func lostClaim(t *testing.T, mode int32) {
	e := newEnv(t, smscsim.Config{})
	u, err := url.Parse(e.db.URL)
	if err != nil {
		t.Fatal(err)
	}
	proxy := startCutProxy(t, u.Host)
	u.Host = proxy.ln.Addr().String()
	q := u.Query()
	q.Set("default_query_exec_mode", "simple_protocol")
	u.RawQuery = q.Encode()
	pool, err := db.Open(e.ctx(), u.String())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	e.gwPool = pool

	var arm sync.Once
	e.start(e.config(func(c *Config) { c.Binds[0].TPS = 5000 }), func(g *Gateway) {
		g.handler.chunk = 100
		g.handler.afterChunk = func(_ jobs.SendBatch, chunk int) {
			if chunk == 2 {
				arm.Do(func() { proxy.armed.Store(mode) }) // the next claim is cut
			}
		}
	})
	const n = 1000
	sendID := e.createSend(persian2, true, "queued")
	e.addRecipients(sendID, 3, n, 1, "98912", "mci", 2)
	e.enqueue(jobs.SendBatch{SendID: sendID, Batch: 3, Operator: "mci"}, "")

	waitFor(t, 60*time.Second, "every recipient sent", func() bool {
		return e.count(`SELECT count(*) FROM recipients WHERE send_id = $1 AND status = 0`, sendID) == n
	})
	if c := proxy.cuts.Load(); c != 1 {
		t.Fatalf("%d claims cut, want 1", c)
	}
	if mode == cutAnswer && proxy.committed.Load() != 1 {
		t.Fatal("the cut claim was not committed: the test did not lose a committed claim's answer")
	}
	if u := e.count(`SELECT count(*) FROM recipients WHERE send_id = $1 AND unknown`, sendID); u != 0 {
		t.Fatalf("%d recipients unknown", u)
	}
	if c := e.count(`SELECT count(*) FROM recipient_claims WHERE send_id = $1`, sendID); c != 0 {
		t.Fatalf("%d claims left", c)
	}
	if st := e.sim.Stats(); st.Duplicates != 0 || st.Total.Accepted != 2*n {
		t.Fatalf("simulator: accepted %d, duplicates %d", st.Total.Accepted, st.Duplicates)
	}
	if sc := e.sendCounters(sendID); sc.Submitted != n || sc.Rejected != 0 {
		t.Fatalf("send counters %+v", sc)
	}
}
