package smscsim

import (
	"fmt"
	"regexp"
	"testing"
	"time"
	"unicode/utf16"

	"github.com/fiorix/go-smpp/smpp/pdu/pdufield"
)

func TestSubmitGSM7SinglePart(t *testing.T) {
	srv := startSim(t, Config{})
	e := dialESME(t, srv.Addr("mci"), true)
	e.mustBind(srv)

	text := "Hello [Chapar] {ok} 100€ @home ^_^"
	id, st := e.submit(submitPDU("30001234", "989121111111", 0, 0, 0, gsm7(text)))
	if st != 0 {
		t.Fatalf("status %#x", uint32(st))
	}
	if !regexp.MustCompile(`^[0-9A-F]{8,}$`).MatchString(id) {
		t.Fatalf("message id %q is not uppercase hex", id)
	}
	msgs := srv.Messages("989121111111")
	if len(msgs) != 1 {
		t.Fatalf("got %d messages", len(msgs))
	}
	m := msgs[0]
	if m.Text != text || m.Parts != 1 || m.Encoding != "GSM7" || m.From != "30001234" ||
		m.Operator != "mci" || len(m.MessageIDs) != 1 || m.MessageIDs[0] != id || m.Ref != nil {
		t.Fatalf("unexpected message %+v", m)
	}

	// The same through the HTTP API.
	var list struct {
		Count    int       `json:"count"`
		Messages []Message `json:"messages"`
	}
	since := m.FirstSubmit.Add(-time.Second).Format(time.RFC3339Nano)
	if code := httpJSON(t, srv, "GET", "/messages?to=989121111111&since="+since, "", &list); code != 200 {
		t.Fatalf("GET /messages: %d", code)
	}
	if list.Count != 1 || list.Messages[0].Text != text {
		t.Fatalf("GET /messages: %+v", list)
	}
	future := time.Now().Add(time.Hour).Format(time.RFC3339)
	if code := httpJSON(t, srv, "GET", "/messages?to=989121111111&since="+future, "", &list); code != 200 || list.Count != 0 {
		t.Fatalf("since in the future: %d messages", list.Count)
	}
	var latest Message
	if code := httpJSON(t, srv, "GET", "/messages/latest?to=989121111111", "", &latest); code != 200 || latest.Text != text {
		t.Fatalf("latest: %d %+v", code, latest)
	}
	if code := httpJSON(t, srv, "DELETE", "/messages", "", nil); code != 200 {
		t.Fatalf("DELETE /messages: %d", code)
	}
	if code := httpJSON(t, srv, "GET", "/messages/latest?to=989121111111", "", nil); code != 404 {
		t.Fatalf("latest after reset: %d", code)
	}

	// Latin-1 and IA5 are decoded byte for byte.
	e.submit(submitPDU("30001234", "989121111112", 0, 3, 0, []byte("caf\xe9")))
	e.submit(submitPDU("30001234", "989121111113", 0, 1, 0, []byte("plain ascii")))
	if m, _ := srv.Latest("989121111112"); m.Text != "café" || m.Encoding != "LATIN1" {
		t.Fatalf("latin1: %+v", m)
	}
	if m, _ := srv.Latest("989121111113"); m.Text != "plain ascii" || m.Encoding != "IA5" {
		t.Fatalf("ia5: %+v", m)
	}
}

func TestSubmitUCS2ThreePartsReassembled(t *testing.T) {
	srv := startSim(t, Config{})
	e := dialESME(t, srv.Addr("rightel"), true)
	e.mustBind(srv)

	text := persianText(67*2 + 40)
	parts := ucs2Parts(text, 67)
	if len(parts) != 3 {
		t.Fatalf("%d parts", len(parts))
	}
	dest := "989211234567"
	// 8-bit reference (IEI 0x00), parts out of order.
	var ids [3]string
	for _, i := range []int{2, 0, 1} {
		sm := append([]byte{0x05, 0x00, 0x03, 0xA7, 3, byte(i + 1)}, parts[i]...)
		id, st := e.submit(submitPDU("3000555", dest, 0x40, 8, 0, sm))
		if st != 0 {
			t.Fatalf("part %d: status %#x", i+1, uint32(st))
		}
		ids[i] = id
		if i != 1 && len(srv.Messages(dest)) != 0 {
			t.Fatal("message listed before all parts arrived")
		}
	}
	msgs := srv.Messages(dest)
	if len(msgs) != 1 {
		t.Fatalf("%d messages", len(msgs))
	}
	m := msgs[0]
	if m.Text != text {
		t.Fatalf("text mismatch:\n got %q\nwant %q", m.Text, text)
	}
	if m.Parts != 3 || m.Encoding != "UCS2" || m.Ref == nil || *m.Ref != 0xA7 ||
		fmt.Sprint(m.MessageIDs) != fmt.Sprint(ids[:]) || m.From != "3000555" || m.LastSubmit.Before(m.FirstSubmit) {
		t.Fatalf("unexpected message %+v", m)
	}

	// 16-bit reference (IEI 0x08), with a surrogate pair split across parts.
	text2 := persianText(66) + "😀" + persianText(20)
	u := utf16.Encode([]rune(text2))
	p1, p2 := ucs2Bytes(u[:67]), ucs2Bytes(u[67:])
	for i, p := range [][]byte{p1, p2} {
		sm := append([]byte{0x06, 0x08, 0x04, 0x12, 0x34, 2, byte(i + 1)}, p...)
		if _, st := e.submit(submitPDU("3000555", "989211234568", 0x40, 8, 0, sm)); st != 0 {
			t.Fatalf("status %#x", uint32(st))
		}
	}
	m2, ok := srv.Latest("989211234568")
	if !ok || m2.Text != text2 || m2.Parts != 2 || *m2.Ref != 0x1234 {
		t.Fatalf("16-bit ref message: %+v", m2)
	}

	// A malformed UDH is refused.
	if _, st := e.submit(submitPDU("3000555", dest, 0x40, 8, 0, []byte{0x09, 0x00})); st != StatusInvEsmClass {
		t.Fatalf("bad UDH: status %#x", uint32(st))
	}
}

func TestThrottling(t *testing.T) {
	srv := startSim(t, Config{Rate: 10, Burst: 3})
	e := dialESME(t, srv.Addr("mci"), true)
	e.mustBind(srv)
	const n = 20
	start := time.Now()
	for i := range n {
		e.send(submitPDU("3000", fmt.Sprintf("98912000%04d", i), 0, 0, 0, []byte("hi")))
	}
	ok, throttled := 0, 0
	for range n {
		r := e.resp(waitLong)
		switch r.Header().Status {
		case 0:
			ok++
		case StatusThrottled:
			throttled++
			if id := fieldString(r.Fields(), pdufield.MessageID); id != "" {
				t.Fatalf("throttled response carries message id %q", id)
			}
		default:
			t.Fatalf("status %#x", uint32(r.Header().Status))
		}
	}
	// Burst 3, plus what 10/s refilled meanwhile (a loaded machine is slow).
	if limit := 3 + int(time.Since(start).Seconds()*10) + 1; ok < 3 || ok > limit || throttled != n-ok {
		t.Fatalf("accepted %d throttled %d", ok, throttled)
	}
	st := srv.Stats().Operators["mci"]
	if st.Throttled != int64(throttled) || st.Accepted != int64(ok) || st.SubmitSM != n {
		t.Fatalf("counters %+v", st)
	}
	if got := srv.Stats().Store.Completed; got != int64(ok) {
		t.Fatalf("%d messages stored, want only the %d accepted", got, ok)
	}
	// After a pause the bucket refills.
	time.Sleep(350 * time.Millisecond)
	if _, st := e.submit(submitPDU("3000", "989129999999", 0, 0, 0, []byte("later"))); st != 0 {
		t.Fatalf("after refill: status %#x", uint32(st))
	}
}

func TestDuplicateCounter(t *testing.T) {
	srv := startSim(t, Config{})
	e := dialESME(t, srv.Addr("mci"), true)
	e.mustBind(srv)
	sm := append([]byte{0x05, 0x00, 0x03, 0x01, 2, 1}, ucs2Bytes(utf16.Encode([]rune("بخش اول")))...)
	e.submit(submitPDU("3000", "989120000001", 0x40, 8, 1, sm))
	e.submit(submitPDU("3000", "989120000002", 0x40, 8, 1, sm)) // other destination: not a duplicate
	if d := srv.Stats().Duplicates; d != 0 {
		t.Fatalf("duplicates %d before resubmission", d)
	}
	// The same PDU resubmitted (as after a lost submit_sm_resp).
	e.submit(submitPDU("3000", "989120000001", 0x40, 8, 1, sm))
	var st Stats
	httpJSON(t, srv, "GET", "/stats", "", &st)
	if st.Duplicates != 1 || len(st.DuplicateDestinations) != 1 || st.DuplicateDestinations[0] != "989120000001" ||
		st.Operators["mci"].Duplicates != 1 {
		t.Fatalf("duplicates %d %v", st.Duplicates, st.DuplicateDestinations)
	}
	// Same text, different UDH (part 2): not a duplicate.
	sm2 := append([]byte{0x05, 0x00, 0x03, 0x01, 2, 2}, sm[6:]...)
	e.submit(submitPDU("3000", "989120000001", 0x40, 8, 1, sm2))
	if d := srv.Stats().Duplicates; d != 1 {
		t.Fatalf("duplicates %d", d)
	}
	// The duplicate part did not change the reassembled text.
	if m, _ := srv.Latest("989120000001"); m.Text != "بخش اولبخش اول" || m.Parts != 2 {
		t.Fatalf("message %+v", m)
	}
	if code := httpJSON(t, srv, "POST", "/reset", "", nil); code != 200 {
		t.Fatalf("reset %d", code)
	}
	if st := srv.Stats(); st.Duplicates != 0 || st.Total.SubmitSM != 0 || st.Store.Stored != 0 {
		t.Fatalf("after reset %+v", st)
	}
}
