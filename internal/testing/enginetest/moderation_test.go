package enginetest_test

import (
	"context"
	"testing"
	"time"

	"github.com/chapar/chapar/internal/testing/enginetest"
	"github.com/chapar/chapar/pkg/moderation"
	"github.com/chapar/chapar/pkg/report"
	"github.com/chapar/chapar/pkg/review"
	"github.com/chapar/chapar/pkg/send"
)

// heldItem finds the pending review item of a send in the back office queue.
func heldItem(t *testing.T, e *enginetest.Engine, staffToken string, sendID int64) review.Item {
	t.Helper()
	var items []review.Item
	e.Must(200, "GET", "/v1/api/admin/reviews/items?kind=send", nil, staffToken).Decode(t, &items)
	for _, it := range items {
		if it.SubjectID == sendID {
			return it
		}
	}
	t.Fatalf("send %d not in the queue: %+v", sendID, items)
	return review.Item{}
}

// heldPeerToPeer uploads a peer-to-peer file of rows (text, mobile), sends it and
// returns the accepted send, which must be held, and its review item.
func heldPeerToPeer(t *testing.T, e *enginetest.Engine, token, staff, sender string, rows [][]any) (send.Accepted, review.Item) {
	t.Helper()
	f := upload(t, e, token, "p2p.xlsx", "peer_to_peer", xlsxOf(t, append([][]any{{"متن پیام", "شماره موبایل"}}, rows...)))
	var a send.Accepted
	e.Must(201, "POST", "/v1/api/send", map[string]any{"type": "peer_to_peer", "file_id": f.ID, "sender": sender}, token).Decode(t, &a)
	if a.Status != send.StatusHeld {
		t.Fatalf("accepted %+v", a)
	}
	return a, heldItem(t, e, staff, a.ID)
}

// A send with a sensitive word is held with its price on hold and nothing reaches
// the carrier; once staff approve it, it is expanded, sent and delivered, charged
// like any send.
func TestHeldSendApprovedIsDelivered(t *testing.T) {
	e := enginetest.Start(t, enginetest.Options{})
	token, acct := e.Account("gambler", "09121110021", "30008881", "service", 1_000_000)
	staff := e.Staff("reviewer", "09120009902")
	before := credit(t, e, token)
	var a send.Accepted
	e.Must(201, "POST", "/v1/api/send", map[string]any{"text": "افتتاح کازینو", "numbers": []string{"09121234600", "09351234600"}}, token).Decode(t, &a)
	if a.Status != send.StatusHeld || credit(t, e, token) != before-a.Price {
		t.Fatalf("accepted %+v, credit %d", a, credit(t, e, token))
	}
	time.Sleep(1500 * time.Millisecond) // the worker and sweeper run; a held send must stay put
	var st report.Stats
	e.Must(200, "GET", "/v1/api/report/bulk_stats?id="+itoa(a.ID), nil, token).Decode(t, &st)
	if _, got := e.Sim.Latest("989121234600"); got || st.Status != send.StatusHeld || st.Expanded {
		t.Fatalf("held send moved: %+v, reached the carrier %v", st, got)
	}
	it := heldItem(t, e, staff, a.ID)
	if len(it.Reasons) != 1 || it.Summary != "افتتاح کازینو" {
		t.Fatalf("item %+v", it)
	}
	e.Must(404, "POST", "/v1/api/admin/reviews/"+itoa(it.ID)+"/approve", map[string]any{}, token) // customers cannot
	e.Must(200, "POST", "/v1/api/admin/reviews/"+itoa(it.ID)+"/approve", map[string]any{}, staff)
	e.Must(409, "POST", "/v1/api/admin/reviews/"+itoa(it.ID)+"/approve", map[string]any{}, staff)
	e.Wait("the approved send delivered", 30*time.Second, func() bool {
		s := sendStats(t, e, a.ID)
		return s.Status == "done" && s.Delivered == 2
	})
	if taken := ledgerBalanced(t, e, acct, a.ID); taken != charged(t, e, a.ID) || taken != a.Price {
		t.Fatalf("ledger took %d, price %d", taken, a.Price)
	}
}

// A blocked send is refunded to the rial, never reaches the carrier, and shows the
// staff's reason to the customer.
func TestHeldSendBlockedIsRefunded(t *testing.T) {
	e := enginetest.Start(t, enginetest.Options{})
	token, acct := e.Account("linker", "09121110022", "30008882", "service", 1_000_000)
	staff := e.Staff("reviewer2", "09120009903")
	before := credit(t, e, token)
	var a send.Accepted
	e.Must(201, "POST", "/v1/api/send", map[string]any{"text": "جایزه: https://bad.example.com/x",
		"numbers": []string{"09121234601", "09121234602", "09201234603"}}, token).Decode(t, &a)
	if a.Status != send.StatusHeld || a.Price <= 0 {
		t.Fatalf("accepted %+v", a)
	}
	it := heldItem(t, e, staff, a.ID)
	e.Must(422, "POST", "/v1/api/admin/reviews/"+itoa(it.ID)+"/reject", map[string]any{"reason": " "}, staff)
	e.Must(200, "POST", "/v1/api/admin/reviews/"+itoa(it.ID)+"/reject", map[string]any{"reason": "پیوند نامعتبر"}, staff)
	e.Must(409, "POST", "/v1/api/admin/reviews/"+itoa(it.ID)+"/approve", map[string]any{}, staff)
	if c := credit(t, e, token); c != before {
		t.Fatalf("credit %d after block, want %d back", c, before)
	}
	if taken := ledgerBalanced(t, e, acct, a.ID); taken != 0 {
		t.Fatalf("a blocked send took %d rials", taken)
	}
	var st report.Stats
	e.Must(200, "GET", "/v1/api/report/bulk_stats?id="+itoa(a.ID), nil, token).Decode(t, &st)
	if st.Status != send.StatusBlocked || st.ReviewNote != "پیوند نامعتبر" || st.Refunded != a.Price || st.Pending != 0 {
		t.Fatalf("blocked stats %+v", st)
	}
	time.Sleep(time.Second)
	var recips int
	_ = e.DB.Pool.QueryRow(context.Background(), `SELECT count(*) FROM recipients WHERE send_id = $1`, a.ID).Scan(&recips)
	if _, got := e.Sim.Latest("989121234601"); recips != 0 || got {
		t.Fatalf("blocked send expanded %d recipients, reached the carrier %v", recips, got)
	}
}

// A peer-to-peer file with one row carrying a sensitive word is held as a whole
// (the queue shows that row and how many rows carry a word); approving sends every
// row, charged like any send.
func TestPeerToPeerRowWordHeldThenApproved(t *testing.T) {
	e := enginetest.Start(t, enginetest.Options{})
	token, acct := e.Account("rowtexts", "09121110023", "30008883", "service", 1_000_000)
	staff := e.Staff("reviewer3", "09120009904")
	bad := "جایزه ویژه شرط\u200cبندی فوتبال"
	before := credit(t, e, token)
	a, it := heldPeerToPeer(t, e, token, staff, "30008883", [][]any{
		{"سلام علی، سفارش شما رسید", "09121234610"},
		{bad, "09121234611"},
		{"Hello Sara", "09351234612"},
	})
	if credit(t, e, token) != before-a.Price {
		t.Fatalf("accepted %+v, credit %d", a, credit(t, e, token))
	}
	if len(it.Reasons) != 1 || it.Reasons[0] != moderation.RowReason("شرط بندی", 1) || it.Summary != bad {
		t.Fatalf("item %+v", it)
	}
	if _, got := e.Sim.Latest("989121234610"); got {
		t.Fatal("a held send reached the carrier")
	}
	e.Must(200, "POST", "/v1/api/admin/reviews/"+itoa(it.ID)+"/approve", map[string]any{}, staff)
	e.Wait("the approved send delivered", 30*time.Second, func() bool {
		s := sendStats(t, e, a.ID)
		return s.Status == "done" && s.Delivered == 3
	})
	if msg, ok := e.Sim.Latest("989121234611"); !ok || msg.Text != bad {
		t.Fatalf("the approved row got %q", msg.Text)
	}
	if taken := ledgerBalanced(t, e, acct, a.ID); taken != charged(t, e, a.ID) || taken != a.Price {
		t.Fatalf("ledger took %d, price %d", taken, a.Price)
	}
}

// A keyword send whose cells put a sensitive word into some rendered rows is held;
// blocking it refunds the hold to the rial and nothing reaches the carrier. A clean
// peer-to-peer file of the same account goes straight out.
func TestKeywordRowWordHeldThenBlocked(t *testing.T) {
	e := enginetest.Start(t, enginetest.Options{})
	token, acct := e.Account("kwrows", "09121110024", "30008884", "service", 1_000_000)
	staff := e.Staff("reviewer4", "09120009905")
	kw := upload(t, e, token, "keyword.csv", "send", []byte("mobile,name,game\n09121234620,مریم,شطرنج\n09121234621,رضا,قمار\n09121234622,سارا,CASINO\n"))
	before := credit(t, e, token)
	var a send.Accepted
	e.Must(201, "POST", "/v1/api/send", map[string]any{"type": "keyword", "file_id": kw.ID, "sender": "30008884",
		"text": "{ex_B} عزیز، مسابقه {ex_C} امشب"}, token).Decode(t, &a)
	if a.Status != send.StatusHeld {
		t.Fatalf("accepted %+v", a)
	}
	it := heldItem(t, e, staff, a.ID)
	if len(it.Reasons) != 1 || it.Reasons[0] != moderation.RowReason("قمار", 2) || it.Summary != "رضا عزیز، مسابقه قمار امشب" {
		t.Fatalf("item %+v", it)
	}
	e.Must(200, "POST", "/v1/api/admin/reviews/"+itoa(it.ID)+"/reject", map[string]any{"reason": "محتوای قمار"}, staff)
	if c := credit(t, e, token); c != before {
		t.Fatalf("credit %d after block, want %d back", c, before)
	}
	if taken := ledgerBalanced(t, e, acct, a.ID); taken != 0 {
		t.Fatalf("a blocked send took %d rials", taken)
	}
	clean := upload(t, e, token, "clean.xlsx", "peer_to_peer", xlsxOf(t, [][]any{{"متن", "شماره"}, {"کد شما ۱۲۳۴", "09121234623"}}))
	var c send.Accepted
	e.Must(201, "POST", "/v1/api/send", map[string]any{"type": "peer_to_peer", "file_id": clean.ID, "sender": "30008884"}, token).Decode(t, &c)
	if c.Status == send.StatusHeld {
		t.Fatalf("a clean file was held: %+v", c)
	}
	if _, got := e.Sim.Latest("989121234621"); got {
		t.Fatal("a blocked send reached the carrier")
	}
}

// A peer-to-peer file with one row carrying a link is held with the link reason
// (the main text's link rule, applied to every row text in the pricing walk); the
// queue shows that row, and nothing reaches the carrier. A row whose only dots end
// Persian sentences or sit between digits is not a link.
func TestPeerToPeerRowLinkHeld(t *testing.T) {
	e := enginetest.Start(t, enginetest.Options{})
	token, _ := e.Account("rowlinks", "09121110025", "30008885", "service", 1_000_000)
	staff := e.Staff("reviewer5", "09120009906")
	bad := "تخفیف ویژه در Shop-Chapar.IR تا پایان هفته"
	_, it := heldPeerToPeer(t, e, token, staff, "30008885", [][]any{
		{"سلام علی. سفارش شما رسید: مبلغ 12.500 تومان", "09121234630"},
		{bad, "09121234631"},
		{"کد شما ۱۲۳۴ است.", "09351234632"},
	})
	if len(it.Reasons) != 1 || it.Reasons[0] != moderation.RowLinkReason(1) || it.Summary != bad {
		t.Fatalf("item %+v", it)
	}
	time.Sleep(500 * time.Millisecond)
	if _, got := e.Sim.Latest("989121234630"); got {
		t.Fatal("a held send reached the carrier")
	}
}
