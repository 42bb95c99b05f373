package gateway

import (
	"bufio"
	"fmt"
	"net"
	"strings"
	"sync"
	"testing"

	"github.com/fiorix/go-smpp/smpp/pdu"
	"github.com/fiorix/go-smpp/smpp/pdu/pdufield"

	"github.com/chapar/chapar/jobs"
)

// rejectingSMSC is a minimal SMSC (the simulator has no rejection
// injection): it rejects every part to a destination ending in 1 with
// ESME_RINVDSTADR, the second part to one ending in 2 with ESME_RSUBMITFAIL,
// and accepts everything else.
type rejectingSMSC struct {
	ln     net.Listener
	mu     sync.Mutex
	seen   map[string]int // submits per destination
	nextID int
}

func newRejectingSMSC(t *testing.T) *rejectingSMSC {
	t.Helper()
	s := &rejectingSMSC{seen: map[string]int{}, nextID: 0x1000}
	s.ln = serveTCP(t, s.serve)
	return s
}

func (s *rejectingSMSC) serve(c net.Conn) {
	defer c.Close()
	r := bufio.NewReader(c)
	w := bufio.NewWriter(c)
	for {
		p, err := pdu.Decode(r)
		if err != nil {
			return
		}
		h := p.Header()
		var resp pdu.Body
		switch h.ID {
		case pdu.BindTransceiverID:
			resp = pdu.NewBindTransceiverResp()
			_ = resp.Fields().Set(pdufield.SystemID, "reject")
		case pdu.EnquireLinkID:
			resp = pdu.NewEnquireLinkResp()
		case pdu.UnbindID:
			resp = pdu.NewUnbindResp()
		case pdu.SubmitSMID:
			resp = pdu.NewSubmitSMResp()
			dest := p.Fields()[pdufield.DestinationAddr].String()
			s.mu.Lock()
			s.seen[dest]++
			n := s.seen[dest]
			switch {
			case strings.HasSuffix(dest, "1"):
				resp.Header().Status = 0x0B // ESME_RINVDSTADR
			case strings.HasSuffix(dest, "2") && n == 2:
				resp.Header().Status = 0x45 // ESME_RSUBMITFAIL
			default:
				s.nextID++
				_ = resp.Fields().Set(pdufield.MessageID, fmt.Sprintf("%08X", s.nextID))
			}
			s.mu.Unlock()
		default:
			continue
		}
		resp.Header().Seq = h.Seq
		if err := resp.SerializeTo(w); err != nil {
			return
		}
		if r.Buffered() == 0 {
			if err := w.Flush(); err != nil {
				return
			}
		}
		if h.ID == pdu.UnbindID {
			_ = w.Flush()
			return
		}
	}
}

// SMSC rejections: a recipient whose every part is rejected becomes status
// 6 with error smsc:0xNN and counts as rejected; one with a part rejected
// and a part accepted is sent with parts_failed = 1 and one message id.
func TestRejectedParts(t *testing.T) {
	smsc := newRejectingSMSC(t)
	e := newBareEnv(t)
	g := e.start(e.configFor(smsc.ln.Addr().String(), nil), nil)

	sendID := e.createSend(persian2, true, "queued")
	e.addRecipients(sendID, 1, 30, 10, "98912", "mci", 2) // mobiles …0010 to …0039
	if err := g.handler.ProcessTask(e.ctx(), batchTask(t, jobs.SendBatch{SendID: sendID, Batch: 1, Operator: "mci"})); err != nil {
		t.Fatal(err)
	}
	type row struct {
		status, failed, ids int
		errText             string
	}
	rows, err := e.db.Pool.Query(e.ctx(), `
		SELECT r.mobile, r.status, r.parts_failed, r.error, cardinality(array_remove(coalesce(r.msg_ids, '{}'), ''))
		FROM recipients r WHERE r.send_id = $1`, sendID)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	n := 0
	for rows.Next() {
		var m string
		var r row
		if err := rows.Scan(&m, &r.status, &r.failed, &r.errText, &r.ids); err != nil {
			t.Fatal(err)
		}
		n++
		want := row{status: 0, ids: 2}
		switch m[len(m)-1] {
		case '1':
			want = row{status: 6, errText: "smsc:0x0B"}
		case '2':
			want = row{status: 0, failed: 1, ids: 1}
		}
		if r != want {
			t.Errorf("%s: %+v, want %+v", m, r, want)
		}
	}
	if n != 30 {
		t.Fatalf("%d recipients", n)
	}
	if sc := e.sendCounters(sendID); sc.Submitted != 27 || sc.Rejected != 3 {
		t.Fatalf("send counters %+v", sc)
	}
	if bs := bindStats(g.Gateway); bs.Rejected != 9 || bs.Accepted != 51 {
		t.Fatalf("bind counters %+v", bs)
	}
}
