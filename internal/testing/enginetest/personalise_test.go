package enginetest_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/chapar/chapar/internal/testing/enginetest"
	"github.com/chapar/chapar/pkg/send"
)

// A phonebook send personalises like a keyword send: {title} {name}, a custom
// feature and a Jalali birth date are rendered per contact at expansion and reach
// each handset; the quote previews the first rows with their parts and price; an
// unknown tag is refused before anything is priced or stored.
func TestPhonebookSendPersonalised(t *testing.T) {
	e := enginetest.Start(t, enginetest.Options{})
	token, acct := e.Account("personalbook", "09121110017", "50001717", "service", 10_000_000)
	var book struct{ ID int64 }
	e.Must(201, "POST", "/v1/api/phonebooks", map[string]any{"name": "مشتریان ویژه"}, token).Decode(t, &book)
	e.Must(201, "POST", "/v1/api/phonebooks/options", map[string]any{"title_fa": "شهر", "title_en": "city", "type": "text"}, token)
	e.Must(201, "POST", "/v1/api/phonebooks/numbers/add-list-new", map[string]any{"phonebook_id": book.ID, "contacts": []map[string]any{
		{"number": "09121237001", "name": "علی رضایی", "gender": "male", "birth_date": "1990-03-21", "features": map[string]any{"city": "تبریز"}},
		{"number": "09121237002", "name": "مریم احمدی", "gender": "female", "birth_date": "2000-01-01", "features": map[string]any{"city": "شیراز"}},
	}}, token)

	text := "{title} {name} عزیز از {city}، تولدتان ({birth_date}) مبارک"
	body := map[string]any{"type": "phonebook", "phonebook_ids": []int64{book.ID}, "sender": "50001717", "text": text}
	var q send.Quote
	e.Must(200, "POST", "/v1/api/send/calculate-price", body, token).Decode(t, &q)
	want := map[string]string{
		"09121237001": "آقای علی رضایی عزیز از تبریز، تولدتان (1369/01/01) مبارک",
		"09121237002": "خانم مریم احمدی عزیز از شیراز، تولدتان (1378/10/11) مبارک",
	}
	if len(q.Preview) != 2 || q.Recipients != 2 {
		t.Fatalf("quote %+v", q)
	}
	for _, row := range q.Preview {
		if row.Text != want[row.Mobile] || row.Parts != 1 || row.Price <= 0 {
			t.Fatalf("preview row %+v, want %q", row, want[row.Mobile])
		}
	}

	bad := map[string]any{"type": "phonebook", "phonebook_ids": []int64{book.ID}, "sender": "50001717", "text": "سلام {nmae}"}
	for _, path := range []string{"/v1/api/send/calculate-price", "/v1/api/send"} {
		r := e.Do("POST", path, bad, token)
		if r.Status != 422 || len(r.Meta.Errors["text"]) != 1 || r.Meta.Errors["text"][0] !=
			fmt.Sprintf(send.MsgUnknownTag, "{nmae}", "{name}، {title}، {mobile}، {birth_date}، {city}") {
			t.Fatalf("%s unknown tag: %d %+v", path, r.Status, r.Meta)
		}
	}

	var a send.Accepted
	e.Must(201, "POST", "/v1/api/send", body, token).Decode(t, &a)
	e.Wait("the phonebook send done", 30*time.Second, func() bool { return sendStats(t, e, a.ID).Status == "done" })
	for local, text := range want {
		if msg, ok := e.Sim.Latest("98" + local[1:]); !ok || msg.Text != text || msg.From != "50001717" {
			t.Fatalf("%s received %q from %s, want %q", local, msg.Text, msg.From, text)
		}
	}
	if taken := ledgerBalanced(t, e, acct, a.ID); taken != charged(t, e, a.ID) {
		t.Fatalf("ledger took %d", taken)
	}
	var sends int
	if err := e.DB.Pool.QueryRow(t.Context(), `SELECT count(*) FROM sends WHERE account_id = $1`, acct).Scan(&sends); err != nil || sends != 1 {
		t.Fatalf("sends stored: %d %v (the refused ones must store nothing)", sends, err)
	}
}
