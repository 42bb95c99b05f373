package enginetest_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chapar/chapar/cmd/smsc-sim/smscsim"
	"github.com/chapar/chapar/internal/testing/enginetest"
	"github.com/chapar/chapar/pkg/config"
)

type inboxRow struct {
	text       string
	parts      int
	incomplete bool
}

func inboxRows(t *testing.T, e *enginetest.Engine, acct int64, sender string) []inboxRow {
	t.Helper()
	rows, err := e.DB.Pool.Query(context.Background(), `SELECT text, parts, incomplete FROM inbox
		WHERE account_id = $1 AND sender = $2 ORDER BY id`, acct, sender)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []inboxRow
	for rows.Next() {
		var r inboxRow
		if err := rows.Scan(&r.text, &r.parts, &r.incomplete); err != nil {
			t.Fatal(err)
		}
		out = append(out, r)
	}
	return out
}

// Concatenated MO messages reach the inbox whole: parts out of order, with 8- and
// 16-bit references, in UCS-2, GSM-7 and Latin-1; a message whose part never comes
// is stored as what arrived, flagged, once the wait is over.
func TestInboundMultipart(t *testing.T) {
	e := enginetest.Start(t, enginetest.Options{Config: func(c *config.Config) { c.InboxPartWait = time.Second }})
	_, acct := e.Account("multipart", "09121110071", "30007171", "service", 0)
	persian := strings.Repeat("پیام بلند فارسی ", 20)   // 320 characters: 5 UCS-2 parts
	latin := strings.Repeat("hello gsm world {x} ", 12) // 240 characters with escapes: 2 GSM-7 parts
	latin1 := strings.Repeat("café déjà vu ", 15)       // 195 characters: 2 Latin-1 parts
	for _, c := range []struct {
		from string
		mo   smscsim.MO
	}{
		{"989121000001", smscsim.MO{Text: persian, Parts: []int{3, 5, 1, 4, 2}}},
		{"989121000002", smscsim.MO{Text: persian, Ref16: true, Parts: []int{2, 1, 3, 5, 4}}},
		{"989121000003", smscsim.MO{Text: latin, Encoding: smscsim.MOGSM7, Parts: []int{2, 1}}},
		{"989121000004", smscsim.MO{Text: latin1, Encoding: smscsim.MOLatin1}},
		{"989121000005", smscsim.MO{Text: persian, Parts: []int{1, 2, 4, 5}}}, // part 3 lost
		{"989121000006", smscsim.MO{Text: "۱۲۳ سلام", Encoding: smscsim.MOUCS2}},
	} {
		c.mo.Operator, c.mo.From, c.mo.To = "mci", c.from, "30007171"
		if _, err := e.Sim.InjectMO(c.mo); err != nil {
			t.Fatal(err)
		}
	}
	e.Wait("six messages in the inbox", 20*time.Second, func() bool {
		var n int
		_ = e.DB.Pool.QueryRow(context.Background(), `SELECT count(*) FROM inbox WHERE account_id = $1`, acct).Scan(&n)
		return n == 6
	})
	for sender, want := range map[string]inboxRow{
		"989121000001": {persian, 5, false},
		"989121000002": {persian, 5, false},
		"989121000003": {latin, 2, false},
		"989121000004": {latin1, 2, false},
		"989121000006": {"۱۲۳ سلام", 1, false},
	} {
		got := inboxRows(t, e, acct, sender)
		if len(got) != 1 || got[0] != want {
			t.Errorf("%s: got %+v, want one %+v", sender, got, want)
		}
	}
	lost := inboxRows(t, e, acct, "989121000005")
	if len(lost) != 1 || !lost[0].incomplete || lost[0].parts != 4 {
		t.Fatalf("lost part: %+v", lost)
	}
	r := []rune(persian)
	if want := string(r[:134]) + string(r[201:]); lost[0].text != want { // 67 characters per UCS-2 part with a header
		t.Fatalf("incomplete text %q, want %q", lost[0].text, want)
	}
}

// A sender on the receive blacklist stays out of the inbox.
func TestReceiveBlacklist(t *testing.T) {
	e := enginetest.Start(t, enginetest.Options{})
	_, acct := e.Account("rblock", "09121110072", "30007272", "service", 0)
	if _, err := e.DB.Pool.Exec(context.Background(), `INSERT INTO blacklist (account_id, kind, mobile) VALUES ($1, 'receive', '989121000009')`, acct); err != nil {
		t.Fatal(err)
	}
	for _, from := range []string{"989121000009", "989121000010"} {
		if _, err := e.Sim.InjectMO(smscsim.MO{Operator: "mci", From: from, To: "30007272", Text: "سلام"}); err != nil {
			t.Fatal(err)
		}
	}
	e.Wait("the allowed sender's message", 10*time.Second, func() bool { return len(inboxRows(t, e, acct, "989121000010")) == 1 })
	time.Sleep(500 * time.Millisecond)
	if got := inboxRows(t, e, acct, "989121000009"); len(got) != 0 {
		t.Fatalf("blacklisted sender stored: %+v", got)
	}
}
