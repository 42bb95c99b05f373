package smscsim

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"io"
	"log/slog"
	"net"
	"runtime"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/fiorix/go-smpp/smpp/pdu"
	"github.com/fiorix/go-smpp/smpp/pdu/pdufield"
)

// benchClient is a minimal pipelined ESME: one goroutine writes submit_sm
// from a pre-encoded template under a window, another reads responses and
// answers deliver_sm.
type benchClient struct {
	conn net.Conn
	br   *bufio.Reader
	wmu  sync.Mutex
	bw   *bufio.Writer
}

func readFrame(br *bufio.Reader, buf []byte) ([]byte, error) {
	if _, err := io.ReadFull(br, buf[:4]); err != nil {
		return nil, err
	}
	l := int(binary.BigEndian.Uint32(buf[:4]))
	if l < 16 || l > len(buf) {
		return nil, io.ErrUnexpectedEOF
	}
	if _, err := io.ReadFull(br, buf[4:l]); err != nil {
		return nil, err
	}
	return buf[:l], nil
}

func newBenchClient(b *testing.B, addr string) *benchClient {
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		b.Fatal(err)
	}
	c := &benchClient{conn: conn, br: bufio.NewReaderSize(conn, 256<<10), bw: bufio.NewWriterSize(conn, 256<<10)}
	p := pdu.NewBindTransceiver()
	p.Fields().Set(pdufield.SystemID, "chapar")
	p.Fields().Set(pdufield.Password, "secret")
	raw, _ := encode(p, 1, 0)
	conn.Write(raw)
	frame, err := readFrame(c.br, make([]byte, 4096))
	if err != nil || binary.BigEndian.Uint32(frame[8:12]) != 0 {
		b.Fatalf("bind: %v", err)
	}
	return c
}

// BenchmarkSubmitPipelined measures submit_sm/s through one bind of the
// bench profile, with a receipt for every message that the client
// acknowledges. Run: go test ./cmd/smsc-sim/smscsim -run '^$' -bench Submit -benchtime 200000x -cpu 1,2
func BenchmarkSubmitPipelined(b *testing.B) {
	cfg, err := Profile("bench")
	if err != nil {
		b.Fatal(err)
	}
	cfg.NoHTTP = true
	cfg.Operators = []OperatorConfig{{Name: "mci", Addr: "127.0.0.1:0"}}
	cfg.Logger = slog.New(slog.DiscardHandler)
	// Not startSim: its cleanup would keep this server reachable until the
	// whole benchmark ends and skew the memory figures of later runs.
	srv, err := Start(context.Background(), cfg)
	if err != nil {
		b.Fatal(err)
	}
	defer srv.Close()
	c := newBenchClient(b, srv.Addr("mci"))
	defer c.conn.Close()

	tmpl, _ := encode(submitPDU("30001234", "989120000000", 0, 0, 1, gsm7("Chapar benchmark message, code 123456")), 0, 0)
	destAt := bytes.Index(tmpl, []byte("989120000000"))
	var ackTmpl []byte
	ackTmpl, _ = encode(pdu.NewDeliverSMResp(), 0, 0)

	const window = 2000
	sem := make(chan struct{}, window)
	n := b.N
	done := make(chan struct{})
	var receipts int
	go func() {
		defer close(done)
		buf := make([]byte, 4096)
		ack := append([]byte(nil), ackTmpl...)
		resps := 0
		for resps < n || receipts < n {
			frame, err := readFrame(c.br, buf)
			if err != nil {
				return
			}
			switch pdu.ID(binary.BigEndian.Uint32(frame[4:8])) {
			case pdu.SubmitSMRespID:
				resps++
				<-sem
			case pdu.DeliverSMID:
				receipts++
				copy(ack[12:16], frame[12:16])
				c.wmu.Lock()
				c.bw.Write(ack)
				if c.br.Buffered() == 0 {
					c.bw.Flush()
				}
				c.wmu.Unlock()
			}
		}
		c.wmu.Lock()
		c.bw.Flush()
		c.wmu.Unlock()
	}()

	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := processCPU()
	start := time.Now()
	pkt := append([]byte(nil), tmpl...)
	for i := range n {
		select {
		case sem <- struct{}{}:
		default:
			c.wmu.Lock()
			c.bw.Flush()
			c.wmu.Unlock()
			sem <- struct{}{}
		}
		binary.BigEndian.PutUint32(pkt[12:16], uint32(i+1))
		v := i
		for j := destAt + 11; j > destAt+4; j-- {
			pkt[j] = byte('0' + v%10)
			v /= 10
		}
		c.wmu.Lock()
		c.bw.Write(pkt)
		c.wmu.Unlock()
	}
	c.wmu.Lock()
	c.bw.Flush()
	c.wmu.Unlock()
	select {
	case <-done:
	case <-time.After(2 * time.Minute):
		b.Fatalf("timed out: %d receipts", receipts)
	}
	el := time.Since(start)
	cpu := processCPU() - cpu0
	b.StopTimer()
	b.ReportMetric(float64(n)/el.Seconds(), "submits/s")
	// CPU time of the whole process (simulator and client): independent of
	// other load on the machine.
	b.ReportMetric(float64(n)/cpu.Seconds(), "submits/cpu-s")
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	b.ReportMetric(float64(ms.HeapAlloc)/(1<<20), "live-MB")
	b.ReportMetric(float64(ms.HeapSys)/(1<<20), "heap-sys-MB")
	st := srv.Stats()
	if st.Total.Accepted != int64(n) || receipts != n {
		b.Fatalf("accepted %d receipts %d of %d", st.Total.Accepted, receipts, n)
	}
}

// processCPU returns the user and system CPU time of the process.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
